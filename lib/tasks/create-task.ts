import "server-only";
import { redirect } from "next/navigation";
import type { StudioTaskKind } from "@/lib/db/schema";
import { engineConfig } from "@/lib/engine/config";
import { X3dError } from "@/lib/x3d/client";
import { DEFAULT_COSTS, type CostTable } from "@/lib/x3d/costs";
import { usingLiveService } from "@/lib/x3d/service";
import { errorField, userMessage } from "@/lib/x3d/errors";
import type { CreateResult } from "@/lib/x3d/schemas";
import { currentUser } from "@/lib/session";
import type { CreateTaskState } from "./create-form-state";
import { prepareTask, recordTask } from "./record";

/** The prices the forms show and tasks record: the embedded service's (operators may override them), else the published table. */
export function costTable(): CostTable {
  return usingLiveService() ? DEFAULT_COSTS : engineConfig().costs;
}

/** What creating a task comes to: its studio id, or what to tell the form. */
export type CreateOutcome = { status: "created"; id: string } | CreateError;
export type CreateError = Extract<CreateTaskState, { status: "error" }>;

/**
 * Problems for the form: each next to its field when the form shows that field, else in the
 * general message (so no sentence is lost on a form without the field).
 */
export function problemsState(fields: Record<string, string>, shown: readonly string[], code?: number): CreateError {
  const state: CreateError = { status: "error", fields: {} };
  const other: string[] = [];
  for (const [field, message] of Object.entries(fields)) {
    if (shown.includes(field)) state.fields[field] = message;
    else other.push(message);
  }
  if (other.length) state.message = [...new Set(other)].join(" ");
  if (code !== undefined) state.code = code;
  return state;
}

/** A refusal by the service (or by the client's own check of the request) as the form shows it. */
export function serviceErrorState(error: unknown, shown: readonly string[]): CreateError {
  if (error instanceof X3dError) {
    const field = errorField(error.code);
    return problemsState({ [field ?? "form"]: userMessage(error.code) }, shown, error.code);
  }
  console.error("creating a task failed", error);
  return { status: "error", fields: {}, message: "Something went wrong on our side while creating the task. Try again." };
}

export interface CreateRequest {
  userId: string;
  kind: StudioTaskKind;
  cost: number;
  /** Wire-named options, without files and callback. */
  options: Record<string, unknown>;
  /** Upload ids, source task ids and URLs the task was made from. */
  inputs: Record<string, unknown>;
  /** Fields the form shows, for placing the service's sentences. */
  shown: readonly string[];
  /** Calls the service with the task's callback URL. */
  call: (callbackUrl: string) => Promise<CreateResult>;
}

/** Creates the task at the service and records it; nothing is recorded when the service refuses. */
export async function createWithService(request: CreateRequest): Promise<CreateOutcome> {
  const prepared = prepareTask();
  let created: CreateResult;
  try {
    created = await request.call(prepared.callbackUrl);
  } catch (error) {
    return serviceErrorState(error, request.shown);
  }
  try {
    await recordTask({
      id: prepared.id,
      userId: request.userId,
      kind: request.kind,
      serviceTaskId: created.task_id,
      options: request.options,
      inputs: request.inputs,
      cost: request.cost,
      callbackSecretHash: prepared.callbackSecretHash,
    });
  } catch (error) {
    console.error(`task ${created.task_id} was created at the service but could not be recorded`, error);
    const message = `The service accepted the task (id ${created.task_id}) but the studio could not save it. Try again in a moment.`;
    return { status: "error", fields: {}, message };
  }
  return { status: "created", id: prepared.id };
}

/**
 * The body of every create-task server action: the session, then `create`, then the task's
 * page. Unexpected failures become a sentence for the form, never a thrown error.
 */
export async function createAndRedirect(create: (userId: string, form: FormData) => Promise<CreateOutcome>, form: FormData): Promise<CreateTaskState> {
  const user = await currentUser();
  if (!user) return { status: "error", fields: {}, message: "Your session has ended: sign in again." };
  let outcome: CreateOutcome;
  try {
    outcome = await create(user.id, form);
  } catch (error) {
    return serviceErrorState(error, []);
  }
  // Outside the try: redirect() works by throwing.
  if (outcome.status === "created") return redirect(`/tasks/${outcome.id}`);
  return outcome;
}
