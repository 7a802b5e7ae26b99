"use client";

import { useEffect, useRef } from "react";
import type { StudioTaskKind, TaskState } from "@/lib/tasks/model/task-types";
import { notificationsWanted } from "./notify-toggle";
import { isFinished } from "./task-labels";
import { taskTitle } from "./use-task-title";

interface Watched {
  id: string;
  kind: StudioTaskKind;
  state: TaskState;
  errorMessage: string | null;
}

/**
 * Shows a browser notification when the watched task finishes (done or failed) while its tab
 * is hidden, if the artist asked for them (NotifyToggle). A task already finished when the
 * page opened is not announced.
 */
export function useFinishNotification(task: Watched): void {
  const { id, kind, state, errorMessage } = task;
  const previous = useRef(state);
  useEffect(() => {
    const was = previous.current;
    previous.current = state;
    if (isFinished(was) || !isFinished(state)) return;
    if (document.visibilityState !== "hidden" || !notificationsWanted()) return;
    const body = state === "success" ? "The result is ready." : (errorMessage ?? "The service could not finish it.");
    // The tag: one notification per task, however many tabs show it.
    new Notification(taskTitle(state, kind), { body, tag: `x3d-task-${id}` });
  }, [id, kind, state, errorMessage]);
}
