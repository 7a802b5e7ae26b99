/** What a create-task server action answers the form with (it redirects on success). */
export type CreateTaskState =
  | { status: "idle" }
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

/** The service code for "balance is not enough". */
export const BALANCE_TOO_LOW = 30010000;
