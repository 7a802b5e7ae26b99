"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { refreshBalance } from "@/components/ui/balance-store";
import type { TaskView } from "@/lib/tasks/model/task-view";

const POLL_MS = 2_000;

/** The task as the status route answers it (304 when unchanged: the browser keeps its copy). */
async function fetchTask(id: string): Promise<TaskView> {
  const res = await fetch(`/api/tasks/${encodeURIComponent(id)}`, { cache: "no-cache" });
  if (!res.ok) throw new Error(res.status === 404 ? "This task no longer exists." : "The task could not be loaded.");
  return (await res.json()) as TaskView;
}

/**
 * A task kept current: polled every 2 s until it settles, under the key every view of a task
 * shares (["task", id]: the task page, the history's badges, and the stream that invalidates it
 * on each change). A settled task is not fetched again unless invalidated. When it settles
 * here, the balance is refreshed (a failed task is refunded).
 */
export function useTaskView(initial: TaskView): TaskView {
  const { data = initial } = useQuery({
    queryKey: ["task", initial.id],
    queryFn: () => fetchTask(initial.id),
    initialData: initial,
    staleTime: (query) => (query.state.data?.settled ? Infinity : 0),
    refetchInterval: (query) => (query.state.data?.settled ? false : POLL_MS),
    refetchIntervalInBackground: false,
  });
  const wasSettled = useRef(initial.settled);
  useEffect(() => {
    if (data.settled && !wasSettled.current) void refreshBalance();
    wasSettled.current = data.settled;
  }, [data.settled]);
  return data;
}
