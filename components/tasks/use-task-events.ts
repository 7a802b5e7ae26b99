"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { attachQueryClient, subscribeTaskEvents, subscribeTaskEventsOpen, taskEventsOpen, type TaskEvent } from "./task-events";

export type { TaskEvent } from "./task-events";

/** How often a task page polls while the stream is down (or not open yet). */
const POLL_MS = 2_000;
/**
 * How often it polls while the stream is open. A poll is also what has the studio ask the
 * service (one refresh per task per 3 s, lib/tasks/lifecycle/refresh): at 2 s every other poll did, so
 * 4 s keeps the service asked as often with half the polls, and the stream shows what a
 * refresh learns the moment it is stored instead of at the next poll.
 */
const LIVE_POLL_MS = 4_000;

/**
 * The tab's live task changes. While mounted, each change of task X refetches the query
 * ["task", X] (the full view from /api/tasks/X), and `onEvent`, when given, is called with it
 * (for a list of many tasks: filter by `event.id`). `live` says whether the stream is open;
 * `pollMs` is the poll interval that fits.
 */
export function useTaskEvents(onEvent?: (event: TaskEvent) => void): { live: boolean; pollMs: number } {
  const queryClient = useQueryClient();
  const live = useSyncExternalStore(subscribeTaskEventsOpen, taskEventsOpen, () => false);
  const latest = useRef(onEvent);
  useEffect(() => {
    latest.current = onEvent;
  });
  useEffect(() => attachQueryClient(queryClient), [queryClient]);
  const listening = onEvent !== undefined;
  useEffect(() => (listening ? subscribeTaskEvents((event) => latest.current?.(event)) : undefined), [listening]);
  return { live, pollMs: live ? LIVE_POLL_MS : POLL_MS };
}
