import type { StudioTask } from "@/lib/db/schema";

/** Nothing more to do: it failed, or it succeeded with its result stored and its display copy settled. */
export function isSettled(task: Pick<StudioTask, "state" | "resultFile" | "displayState">): boolean {
  return task.state === "failed" || (task.state === "success" && task.resultFile !== null && task.displayState !== null);
}
