import "server-only";
import type { EngineTask } from "@/lib/db/schema";
import { EngineError } from "../engine-error";
import { answer, fail, ok } from "../envelope";
import { failureCode, taskResult } from "../results";
import { findTask } from "../tasks/transitions";
import { authorized } from "./common";
import { metrics } from "@/lib/metrics/registry";

/**
 * GET <kind>/query-task?task_id=: the task's state, with fresh signed links on success.
 * A failed task answers 50010001 (image-to-3D) or 5001001 with empty data. Unknown ids and
 * other clients' tasks get the same "task not found".
 */
export function handleQuery(request: Request, kind: EngineTask["kind"], schemes: readonly string[]): Promise<Response> {
  metrics().taskPolls.inc({ face: "service" });
  return answer(() =>
    authorized(request, schemes, async (clientId) => {
      const taskId = new URL(request.url).searchParams.get("task_id")?.trim();
      if (!taskId) throw new EngineError(10030009);
      const task = await findTask(taskId);
      if (!task || task.clientId !== clientId || task.kind !== kind) {
        throw new EngineError(10030010, `no ${kind} task "${taskId}" for this client`);
      }
      if (task.state === "failed") return fail(failureCode(kind));
      return ok(await taskResult(task));
    }),
  );
}
