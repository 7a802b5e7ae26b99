import "server-only";
import { and, desc, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import { db } from "@/lib/db";
import { studioTasks, type StudioTask, type StudioTaskKind, type TaskState } from "@/lib/db/schema";
import { userMessage } from "@/lib/x3d/errors";
import { isSettled } from "../lifecycle/refresh";
import { storedFormat } from "../model/results";
import { TASK_KINDS, TASK_STATES } from "../model/task-types";

export { TASK_KINDS, TASK_STATES };
export const HISTORY_PAGE_SIZE = 20;

/**
 * The condition of every look-up of a user's tasks: theirs, and meeting `conditions`. Someone
 * else's task is then the same as one that does not exist.
 */
export function ownedBy(userId: string, ...conditions: SQL[]): SQL | undefined {
  return and(eq(studioTasks.userId, userId), ...conditions);
}

/** The owner's task, or null (also for other users' tasks: callers answer 404 either way). */
export async function findUserTask(userId: string, id: string): Promise<StudioTask | null> {
  const [task] = await (
    await db()
  )
    .select()
    .from(studioTasks)
    .where(ownedBy(userId, eq(studioTasks.id, id)))
    .limit(1);
  return task ?? null;
}

const HistoryFilterSchema = z.object({
  // A bad value in the address bar means "no filter", not an error page.
  kind: z.enum(TASK_KINDS).optional().catch(undefined),
  state: z.enum(TASK_STATES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});
export type HistoryFilter = z.infer<typeof HistoryFilterSchema>;

/** The history filter from a page's search params (first value of each). */
export function parseHistoryFilter(params: Record<string, string | string[] | undefined>): HistoryFilter {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  return HistoryFilterSchema.parse({ kind: first(params.kind), state: first(params.state), page: first(params.page) });
}

/** One page of the user's tasks (`pageSize` a page), newest first, and whether another page follows. */
export async function listUserTasks(
  userId: string,
  filter: HistoryFilter,
  pageSize = HISTORY_PAGE_SIZE,
): Promise<{ tasks: StudioTask[]; hasNext: boolean }> {
  const conditions: SQL[] = [];
  if (filter.kind) conditions.push(eq(studioTasks.kind, filter.kind));
  if (filter.state) conditions.push(eq(studioTasks.state, filter.state));
  const rows = await (
    await db()
  )
    .select()
    .from(studioTasks)
    .where(ownedBy(userId, ...conditions))
    .orderBy(desc(studioTasks.createdAt), desc(studioTasks.id))
    .limit(pageSize + 1)
    .offset((filter.page - 1) * pageSize);
  return { tasks: rows.slice(0, pageSize), hasNext: rows.length > pageSize };
}

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

function displayView(task: StudioTask, files: string): DisplayView {
  const ready = task.displayState === "ready" && task.displayFile !== null;
  return {
    pending: task.state === "success" && task.resultFile !== null && task.displayState === null,
    url: ready ? `${files}/display` : null,
    previewUrl: ready && task.previewFile ? `${files}/preview` : null,
  };
}

/** Options worth showing: never the callback (it carries a secret). */
function displayedOptions(options: Record<string, unknown>, shared: boolean): Record<string, unknown> {
  // A shared page also leaves out source URLs, which can name the owner's storage.
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
  const files = `/api/files/${encodeURIComponent(task.id)}`;
  const resultStored = task.resultFile !== null;
  const coverStored = task.coverFile !== null;
  return {
    id: task.id,
    kind: task.kind,
    state: task.state,
    settled: isSettled(task),
    stateTimes: task.stateTimes,
    createdAt: task.createdAt.toISOString(),
    options: displayedOptions(task.options, false),
    cost: task.cost,
    errorCode: task.errorCode,
    errorMessage: errorMessage(task),
    // Failed tasks are refunded by the service; one it never confirmed may not have failed there.
    refunded: task.state === "failed" && !unconfirmed(task),
    result: {
      stored: resultStored,
      format: storedFormat(task.resultFile),
      url: resultStored ? `${files}/result` : null,
      downloadUrl: resultStored ? `${files}/result?download=1` : null,
    },
    display: displayView(task, files),
    cover: { stored: coverStored, url: coverStored ? `${files}/cover` : null },
    ...(notice ? { problem: notice } : {}),
  };
}

/** The public view behind a share token; files are linked through /api/share/<token>/files. */
export function sharedTaskView(task: StudioTask, token: string): SharedTaskView {
  const files = `/api/share/${encodeURIComponent(token)}/files`;
  return {
    kind: task.kind,
    createdAt: task.createdAt.toISOString(),
    options: displayedOptions(task.options, true),
    result: { format: storedFormat(task.resultFile), url: `${files}/result`, downloadUrl: `${files}/result?download=1` },
    display: displayView(task, files),
    cover: { url: task.coverFile ? `${files}/cover` : null },
  };
}
