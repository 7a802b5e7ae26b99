import "server-only";
import { log } from "@/lib/log";
import type { StudioTaskKind } from "@/lib/db/schema";
import { serverEnv } from "@/lib/env";
import { X3dError } from "@/lib/x3d/client";
import { costsWithOverrides } from "@/lib/x3d/cost-overrides";
import { DEFAULT_COSTS, type CostTable } from "@/lib/x3d/costs";
import { usingLiveService } from "@/lib/x3d/service";
import { errorField, userMessage } from "@/lib/x3d/errors";
import type { CreateResult } from "@/lib/x3d/schemas";
import type { CreateTaskState } from "./action-state";
import { shortMessage } from "@/lib/credits/ledger";
import { userIsAdmin } from "@/lib/accounts/roles";
import { findUserTask } from "../read/queries";
import { taskView } from "../model/task-view";
import { confirmTask, prepareTask, recordChargedTask, unrecord } from "./record";
import { recordServiceError } from "../lifecycle/service-errors";
import { rememberDeletedTask, rememberTask } from "../lifecycle/task-cache";

let embeddedCosts: CostTable | undefined;

/**
 * The prices the forms show and tasks record: the embedded service's (operators may override
 * them with X3D_ENGINE_COSTS, read as the service reads it), else the published table.
 */
export function costTable(): CostTable {
  if (usingLiveService()) return DEFAULT_COSTS;
  embeddedCosts ??= costsWithOverrides(serverEnv().X3D_ENGINE_COSTS);
  return embeddedCosts;
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
  log.error({ err: error }, "[studio] creating a task failed");
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

/**
 * Whether a failed create may have made the task anyway: the request may have reached the
 * service (a timeout or dropped connection after sending, an answer we could not read) and the
 * service did not say no. Such a task is kept as "checking" rather than lost while charged.
 */
export function mayExistAtService(error: unknown): boolean {
  if (!(error instanceof X3dError) || !error.mayHaveReached) return false;
  // A 4xx page that is not the service's envelope (a wrong base URL, a proxy's refusal) made nothing.
  const refusedByHttp = error.httpStatus !== undefined && error.httpStatus >= 400 && error.httpStatus < 500 && error.httpStatus !== 408;
  return (error.kind === "network" || error.kind === "response") && !refusedByHttp;
}

/**
 * Creates the task at the service and records it. First the task's row and its charge are
 * written together ("checking"; lib/credits charges), refused with the cost and the remainder when the
 * owner's credits do not cover it; nothing is uploaded or sent before that. Then the service
 * is called: its task id confirms the row; a refusal, or a request that never reached it,
 * removes the row and its charge (nothing stored, nothing charged). When the answer was lost
 * the row stays "checking": the service's callback names it and gives it its id
 * (lib/tasks/lifecycle/callback), or it settles as failed and is refunded.
 */
export async function createWithService(request: CreateRequest): Promise<CreateOutcome> {
  const prepared = prepareTask();
  const charged = await recordChargedTask(
    {
      id: prepared.id,
      userId: request.userId,
      kind: request.kind,
      options: request.options,
      inputs: request.inputs,
      cost: request.cost,
      callbackSecretHash: prepared.callbackSecretHash,
    },
    !(await userIsAdmin(request.userId)),
  );
  if (!charged.ok) return problemsState({ form: shortMessage(charged.cost, charged.remaining) }, request.shown);
  rememberTask(charged.task);
  let created: CreateResult;
  try {
    created = await request.call(prepared.callbackUrl);
  } catch (error) {
    if (mayExistAtService(error)) {
      log.error({ err: error }, `[studio] the answer to creating task ${prepared.id} was lost; keeping it as "checking"`);
      return { status: "created", id: prepared.id };
    }
    if (await unrecord(prepared.id)) rememberDeletedTask(charged.task);
    await recordServiceError("create", error);
    return serviceErrorState(error, request.shown);
  }
  await confirmTask(prepared.id, created.task_id);
  return { status: "created", id: prepared.id };
}

/**
 * The body of every create-task server action, given the signed-in user the action read (null
 * when the session ended): `create`, then the new task as the status route shows it (the
 * form's page stays and shows it). Unexpected failures become a sentence for the form, never a
 * thrown error.
 */
export async function createFromForm(
  user: { id: string } | null,
  create: (userId: string, form: FormData) => Promise<CreateOutcome>,
  form: FormData,
): Promise<CreateTaskState> {
  if (!user) return { status: "error", fields: {}, message: SESSION_ENDED };
  let outcome: CreateOutcome;
  try {
    outcome = await create(user.id, form);
  } catch (error) {
    return serviceErrorState(error, []);
  }
  if (outcome.status !== "created") return outcome;
  // The task exists (and is charged) from here on: a failure now must not invite a second run.
  try {
    const task = await findUserTask(user.id, outcome.id);
    if (task) return { status: "created", id: outcome.id, task: taskView(task) };
  } catch (error) {
    log.error({ err: error }, `[studio] task ${outcome.id} was created but could not be read back`);
  }
  return { status: "error", fields: {}, message: CREATED_UNSEEN };
}

const SESSION_ENDED = "Your session has ended: sign in again.";
/** Said when the task was made but cannot be shown (deleted at once, or the database failed). */
export const CREATED_UNSEEN = "Your task was created but cannot be shown here: see My tasks.";
