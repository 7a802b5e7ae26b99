"use client";

import { useQueryClient } from "@tanstack/react-query";
import { createContext, startTransition, useActionState, useCallback, useContext, useEffect, useEffectEvent, useState } from "react";
import { IDLE_STATE, type CreateTaskState } from "@/lib/tasks/create-form-state";
import type { TaskView } from "@/lib/tasks/queries";

export type CreateAction = (state: CreateTaskState, form: FormData) => Promise<CreateTaskState>;

/** Told of each task a form created (the workspace shows it); the form itself stays as it was. */
export const TaskCreatedContext = createContext<((task: TaskView) => void) | null>(null);

/**
 * A create-task server action for a form: `submit` for onSubmit (no automatic form reset, the
 * controlled fields keep what the user chose, ready for the next run), field errors that clear
 * as the user edits the field, the new task handed to the workspace, and the balance refreshed
 * after each answer (charged, or a short balance said again).
 */
export function useCreateAction(action: CreateAction) {
  const [state, dispatch, pending] = useActionState(action, IDLE_STATE);
  const [cleared, setCleared] = useState<{ state: CreateTaskState; fields: Set<string> }>({ state, fields: new Set() });
  const queryClient = useQueryClient();
  const created = useContext(TaskCreatedContext);

  // Once per answer, with the workspace's handler of the moment.
  const answered = useEffectEvent((answer: CreateTaskState) => {
    if (answer.status === "idle") return;
    void queryClient.invalidateQueries({ queryKey: ["balance"] });
    if (answer.status === "created") created?.(answer.task);
  });
  useEffect(() => answered(state), [state]);

  // A new answer brings back all its errors.
  const hidden = cleared.state === state ? cleared.fields : new Set<string>();
  const errors: Record<string, string> = {};
  if (state.status === "error") for (const [k, v] of Object.entries(state.fields)) if (!hidden.has(k)) errors[k] = v;

  const clearError = useCallback(
    (...names: string[]) => setCleared((prev) => ({ state, fields: new Set([...(prev.state === state ? prev.fields : []), ...names]) })),
    [state],
  );

  const submit = useCallback(
    (event: React.FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const form = new FormData(event.currentTarget);
      startTransition(() => dispatch(form));
    },
    [dispatch],
  );

  return { state, errors, message: state.status === "error" ? state.message : undefined, pending, submit, clearError };
}
