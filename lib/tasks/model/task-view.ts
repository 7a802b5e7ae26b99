/**
 * What the task page, the status route, the workspace and a share page show of a task: its
 * views, their user-facing sentences and file links (lib/tasks/model/file-urls.ts). Pure.
 */
import type { StudioTask, StudioTaskKind, TaskState } from "@/lib/db/schema";
import { userMessage } from "@/lib/x3d/errors";
import { taskFileUrl, isShared, type Audience } from "./file-urls";
import { storedFormat } from "./results";
import { isSettled } from "./settled";

/** What the owner's task page and status route show. */
export interface TaskView {
  id: string;
  kind: StudioTaskKind;
  state: TaskState;
  /** Failed, or succeeded with the result stored: polling stops. */
  settled: boolean;
  stateTimes: Partial<Record<TaskState, string>>;
  createdAt: string;
  options: Record<string, unknown>;
  cost: number;
  errorCode: number | null;
  /** The catalogue's sentence for errorCode. */
  errorMessage: string | null;
  /** Failed tasks are not charged (open-api.md): the cost went back to the balance. */
  refunded: boolean;
  result: { stored: boolean; format: string | null; url: string | null; downloadUrl: string | null };
  /** What the viewer shows: a meshopt GLB of the result (and a light preview first for large models); null means the original. */
  display: DisplayView;
  cover: { stored: boolean; url: string | null };
  /** A passing trouble (service unreachable, copy failed); the next refresh retries. */
  problem?: string;
}

/** What a share link shows: the result and options, nothing about the owner (inputs: lib/tasks/read/shown-inputs.ts). */
export interface SharedTaskView {
  kind: StudioTaskKind;
  createdAt: string;
  options: Record<string, unknown>;
  result: { format: string | null; url: string; downloadUrl: string };
  display: DisplayView;
  cover: { url: string | null };
}

/** The viewer's copies: `pending` while they are derived, then the URLs to show (null: show the original). */
export interface DisplayView {
  pending: boolean;
  url: string | null;
  previewUrl: string | null;
}

function displayView(task: StudioTask, audience: Audience): DisplayView {
  const ready = task.displayState === "ready" && task.displayFile !== null;
  return {
    pending: task.state === "success" && task.resultFile !== null && task.displayState === null,
    url: ready ? taskFileUrl(audience, "display") : null,
    previewUrl: ready && task.previewFile ? taskFileUrl(audience, "preview") : null,
  };
}

/** Options worth showing: never the callback (it carries a secret). */
function displayedOptions(options: Record<string, unknown>, audience: Audience): Record<string, unknown> {
  // A shared page also leaves out source URLs, which can name the owner's storage.
  const shared = isShared(audience);
  return Object.fromEntries(Object.entries(options).filter(([key]) => key !== "callback_url" && !(shared && key.endsWith("_url"))));
}

/** Said of a task whose create answer was lost, while it waits for the service's callback. */
export const CHECKING_NOTICE =
  "The service may have received this task, but its answer was lost on the way. The studio is waiting for the service to confirm it; creating it again may charge twice.";
/** Said of such a task once the window passed without a word from the service. */
export const UNCONFIRMED_MESSAGE =
  "The service never confirmed this task: its answer to the request was lost and no callback came. If the service ran it, the charge shows in the balance; nothing was stored here.";

/** Failed without a word from the service: its create answer was lost and no callback came. */
const unconfirmed = (task: StudioTask) => task.serviceTaskId === null && task.errorCode === null;

function errorMessage(task: StudioTask): string | null {
  if (task.errorCode !== null) return userMessage(task.errorCode);
  return task.state === "failed" && unconfirmed(task) ? UNCONFIRMED_MESSAGE : null;
}

/** The owner's view of a task; files are linked through /api/files. */
export function taskView(task: StudioTask, problem?: string): TaskView {
  const notice = problem ?? (task.state === "checking" ? CHECKING_NOTICE : undefined);
  const owner: Audience = { owner: task.id };
  const resultStored = task.resultFile !== null;
  const coverStored = task.coverFile !== null;
  return {
    id: task.id,
    kind: task.kind,
    state: task.state,
    settled: isSettled(task),
    stateTimes: task.stateTimes,
    createdAt: task.createdAt.toISOString(),
    options: displayedOptions(task.options, owner),
    cost: task.cost,
    errorCode: task.errorCode,
    errorMessage: errorMessage(task),
    // Failed tasks are refunded by the service; one it never confirmed may not have failed there.
    refunded: task.state === "failed" && !unconfirmed(task),
    result: {
      stored: resultStored,
      format: storedFormat(task.resultFile),
      url: resultStored ? taskFileUrl(owner, "result") : null,
      downloadUrl: resultStored ? taskFileUrl(owner, "result?download=1") : null,
    },
    display: displayView(task, owner),
    cover: { stored: coverStored, url: coverStored ? taskFileUrl(owner, "cover") : null },
    ...(notice ? { problem: notice } : {}),
  };
}

/** The public view behind a share token; files are linked through /api/share/<token>/files. */
export function sharedTaskView(task: StudioTask, token: string): SharedTaskView {
  const share: Audience = { share: token };
  return {
    kind: task.kind,
    createdAt: task.createdAt.toISOString(),
    options: displayedOptions(task.options, share),
    result: {
      format: storedFormat(task.resultFile),
      url: taskFileUrl(share, "result"),
      downloadUrl: taskFileUrl(share, "result?download=1"),
    },
    display: displayView(task, share),
    cover: { url: task.coverFile ? taskFileUrl(share, "cover") : null },
  };
}
