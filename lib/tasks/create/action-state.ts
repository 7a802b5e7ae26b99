import type { TaskView } from "../model/task-view";

/** What a create-task server action answers the form with: the new task (the page stays), or what went wrong. */
export type CreateTaskState =
  | { status: "idle" }
  | {
      status: "created";
      id: string;
      /** The task as the status route shows it, so the page can show it at once. */
      task: TaskView;
    }
  | {
      status: "error";
      /** Sentences by form field (wire names: model, face, images, mesh, ...). */
      fields: Record<string, string>;
      /** A sentence about the whole form, or about a field the form does not show. */
      message?: string;
      /** The service's error code, when the service refused. */
      code?: number;
    };

export const IDLE_STATE: CreateTaskState = { status: "idle" };
