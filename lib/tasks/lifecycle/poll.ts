import "server-only";
import type { StudioTask } from "@/lib/db/schema";
import { processConstant } from "@/lib/global-singleton";
import { log } from "@/lib/log";
import { TtlCache } from "@/lib/ttl-cache";
import { isSettled } from "../model/settled";
import { refreshTask, REFRESH_INTERVAL_MS, type RefreshOutcome } from "./refresh";
import { cachedTask } from "./task-cache";

/**
 * What a task page's poll answers: the task as this process knows it, at once. A refresh that
 * is due (lib/tasks/lifecycle/refresh: one per task per interval, however many pages watch) starts in
 * the background, and what it learns shows in the next poll, a problem included. A poll used
 * to wait for that refresh: about one poll in twelve then carried a round trip to the service
 * and two writes, and set the route's p99.
 */
export interface PollAnswer {
  task: StudioTask;
  /** The last refresh's problem (service unreachable, result not saved yet), until one succeeds. */
  problem?: string;
}

export interface PollDeps {
  /** Starts (or joins) the task's refresh. */
  refresh(id: string): Promise<RefreshOutcome | null>;
  /** Keeps background work running after the answer (Next's `after` in the route). */
  background(work: Promise<unknown>): void;
}

// A problem is shown until a refresh succeeds; kept a few intervals, so it cannot outlive the
// refreshes that would clear it. One per process: route handlers are separate module graphs.
const problems = (): TtlCache<string, string> =>
  processConstant("x3d.studio.poll-problems", () => new TtlCache<string, string>(4 * REFRESH_INTERVAL_MS, 20_000));

const defaultDeps: Pick<PollDeps, "refresh"> = { refresh: (id) => refreshTask(id) };

/** The owner's task now (null when it does not exist or is not theirs); refreshes it in the background when due. */
export async function pollTask(
  id: string,
  userId: string,
  deps: Partial<PollDeps> & Pick<PollDeps, "background">,
): Promise<PollAnswer | null> {
  const task = await cachedTask(id);
  if (!task || task.userId !== userId) return null;
  if (!isSettled(task)) {
    const refresh = deps.refresh ?? defaultDeps.refresh;
    deps.background(
      refresh(task.id).then(
        (outcome) => {
          if (outcome?.problem) problems().set(task.id, outcome.problem);
          else problems().delete(task.id);
        },
        (error: unknown) => {
          log.error({ err: error }, `[studio] refreshing task ${task.id} failed`);
          problems().set(task.id, "The service could not be reached.");
        },
      ),
    );
  }
  const problem = problems().get(task.id);
  return problem ? { task, problem } : { task };
}
