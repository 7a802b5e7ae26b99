import "server-only";
import { forgetDeletedTask, forgetTask } from "../task-cache";
import { taskChangeBus, type TaskChange, type TaskChangeListener } from "./bus";
import { taskChangeRelay } from "./publish";

/**
 * Another server's change: this process's cached row is stale, so the page's fetch that the
 * event prompts must read the database; then the change goes to this process's subscribers.
 */
function onRemoteChange(change: TaskChange): void {
  if (change.state === "deleted") forgetDeletedTask(change.taskId);
  else forgetTask(change.taskId);
  taskChangeBus().deliver(change);
}

/**
 * Calls `listener` with every change of `userId`'s tasks, made by this server or (on
 * PostgreSQL) any other, until the returned function is called.
 */
export function subscribeTaskChanges(userId: string, listener: TaskChangeListener): () => void {
  taskChangeRelay()?.listen(onRemoteChange);
  return taskChangeBus().subscribe(userId, listener);
}
