"use client";

import { useEffect } from "react";
import type { StudioTaskKind, TaskState } from "@/lib/tasks/model/task-types";
import { KIND_LABELS, STATE_LABELS } from "./task-labels";

/** A task's state and kind in words, "Done · Image to 3D": the tab's title and a notification's. */
export const taskTitle = (state: TaskState, kind: StudioTaskKind): string => `${STATE_LABELS[state]} · ${KIND_LABELS[kind]}`;

/** Puts the task's state in the tab's title while the page is open, kept current as the task changes. */
export function useTaskTitle(task: { state: TaskState; kind: StudioTaskKind }): void {
  const { state, kind } = task;
  useEffect(() => {
    const before = document.title;
    const mine = `${taskTitle(state, kind)} · x3d studio`;
    document.title = mine;
    return () => {
      // Put the page's own title back, unless the next page has already set its own.
      if (document.title === mine) document.title = before;
    };
  }, [state, kind]);
}
