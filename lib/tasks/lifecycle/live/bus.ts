import { processConstant } from "@/lib/global-singleton";
import { log } from "@/lib/log";
import type { TaskState } from "@/lib/db/schema";

/** What a change event says of a task: its state, or that it was deleted. */
export const TASK_EVENT_STATES = [
  "checking",
  "created",
  "queueing",
  "processing",
  "success",
  "failed",
  "deleted",
] as const satisfies readonly (TaskState | "deleted")[];
type TaskEventState = (typeof TASK_EVENT_STATES)[number];

/** One change of a studio task: ids and state only; the page fetches the full view itself. */
export interface TaskChange {
  userId: string;
  taskId: string;
  state: TaskEventState;
  /** Failed, or done with its result and display copy stored: nothing more will change. */
  settled: boolean;
}

export type TaskChangeListener = (change: TaskChange) => void;

/**
 * Delivers task changes to this process's subscribers, each only its own user's tasks. A
 * listener that throws is logged and does not keep the change from the others.
 */
export class TaskChangeBus {
  private readonly byUser = new Map<string, Set<TaskChangeListener>>();

  /** Calls `listener` with every change of `userId`'s tasks until the returned function is called. */
  subscribe(userId: string, listener: TaskChangeListener): () => void {
    // Wrapped: the same function subscribed twice is two subscriptions, each removed once.
    const entry: TaskChangeListener = (change) => listener(change);
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(entry);
    return () => {
      const current = this.byUser.get(userId);
      if (!current?.delete(entry)) return;
      if (current.size === 0) this.byUser.delete(userId);
    };
  }

  /** Hands `change` to its user's subscribers; how many received it. */
  deliver(change: TaskChange): number {
    const set = this.byUser.get(change.userId);
    if (!set) return 0;
    let delivered = 0;
    for (const listener of [...set]) {
      delivered++;
      try {
        listener(change);
      } catch (error) {
        log.error({ err: error }, `[studio] a task change listener failed (task ${change.taskId})`);
      }
    }
    return delivered;
  }

  /** Subscriptions open now, all users together. */
  get size(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }
}

/** The process's bus: route handlers are separate module graphs, and all must share one. */
export const taskChangeBus = (): TaskChangeBus => processConstant("x3d.studio.task-change-bus", () => new TaskChangeBus());
