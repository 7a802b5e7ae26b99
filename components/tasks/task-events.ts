/**
 * The tab's one stream of task changes (GET /api/tasks/events), shared by every component
 * that listens: opened with the first subscriber, closed after the last. The browser's
 * EventSource reconnects a dropped stream by itself; one the server refused (signed out) is
 * tried again after REOPEN_MS while anyone still listens.
 */
import type { QueryClient } from "@tanstack/react-query";
import type { TaskState } from "@/lib/tasks/model/task-types";

/** One change of one of the user's tasks, as the server sends it; the task itself comes from /api/tasks/<id>. */
export interface TaskEvent {
  id: string;
  state: TaskState | "deleted";
  /** Failed, or done with its result stored: nothing more will change. */
  settled: boolean;
}
export type TaskEventListener = (event: TaskEvent) => void;

const TASK_EVENTS_URL = "/api/tasks/events";
/** A stream the server refused (the EventSource gave up) is opened again after this long. */
const REOPEN_MS = 30_000;

const EVENT_STATES: ReadonlySet<string> = new Set(["checking", "created", "queueing", "processing", "success", "failed", "deleted"]);

/** The event's data, when it is one (anything else is ignored). */
function parseTaskEvent(data: string): TaskEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { id, state, settled } = value as Record<string, unknown>;
  if (typeof id !== "string" || typeof state !== "string" || !EVENT_STATES.has(state) || typeof settled !== "boolean") return null;
  return { id, state: state as TaskEvent["state"], settled };
}

const listeners = new Set<TaskEventListener>();
const openListeners = new Set<() => void>();
const queryClients = new Map<QueryClient, number>();
let source: EventSource | null = null;
let open = false;
let reopenTimer: ReturnType<typeof setTimeout> | undefined;

function setOpen(next: boolean) {
  if (open === next) return;
  open = next;
  // Events sent while the stream was down are lost: every task query fetches anew once it is back.
  if (open) for (const client of queryClients.keys()) void client.invalidateQueries({ queryKey: ["task"] });
  for (const notify of [...openListeners]) notify();
}

/**
 * Fetches the task again after a change. A fetch under way is not cancelled (a burst of
 * changes, say the result's files stored one after another, would cancel each other's and
 * show none until the last answered): its answer is shown, then, since it may have been asked
 * before the change, one more fetch follows, shared by every change that came meanwhile.
 */
function refetchTask(client: QueryClient, id: string) {
  const filters = { queryKey: ["task", id], exact: true };
  const asked = client.isFetching(filters) > 0;
  void client.invalidateQueries(filters, { cancelRefetch: false }).then(() => {
    if (asked) return client.invalidateQueries(filters, { cancelRefetch: false });
  });
}

function receive(message: MessageEvent<string>) {
  const event = parseTaskEvent(message.data);
  if (!event) return;
  for (const client of queryClients.keys()) refetchTask(client, event.id);
  for (const listener of [...listeners]) listener(event);
}

function connect() {
  if (source || typeof EventSource === "undefined") return;
  clearTimeout(reopenTimer);
  const stream = new EventSource(TASK_EVENTS_URL);
  source = stream;
  stream.addEventListener("open", () => setOpen(true));
  stream.addEventListener("task", receive);
  stream.addEventListener("error", () => {
    setOpen(false);
    if (stream.readyState !== EventSource.CLOSED) return; // reconnecting by itself
    source = null;
    reopenTimer = setTimeout(() => wanted() && connect(), REOPEN_MS);
  });
}

const wanted = () => listeners.size + openListeners.size + queryClients.size > 0;

function disconnectWhenUnused() {
  if (wanted()) return;
  clearTimeout(reopenTimer);
  source?.close();
  source = null;
  setOpen(false);
}

/** Calls `listener` with every change of the user's tasks until the returned function is called. */
export function subscribeTaskEvents(listener: TaskEventListener): () => void {
  listeners.add(listener);
  connect();
  return () => {
    listeners.delete(listener);
    disconnectWhenUnused();
  };
}

/** Calls `onChange` whenever the stream opens or drops (for useSyncExternalStore with `taskEventsOpen`). */
export function subscribeTaskEventsOpen(onChange: () => void): () => void {
  openListeners.add(onChange);
  connect();
  return () => {
    openListeners.delete(onChange);
    disconnectWhenUnused();
  };
}

/** Whether the stream is open now: changes arrive as they happen. */
export const taskEventsOpen = (): boolean => open;

/**
 * Has `client` refetch ["task", id] on each change of that task (and every task query after
 * the stream comes back), once per change however many components hold it.
 */
export function attachQueryClient(client: QueryClient): () => void {
  queryClients.set(client, (queryClients.get(client) ?? 0) + 1);
  connect();
  return () => {
    const holders = (queryClients.get(client) ?? 1) - 1;
    if (holders > 0) queryClients.set(client, holders);
    else queryClients.delete(client);
    disconnectWhenUnused();
  };
}
