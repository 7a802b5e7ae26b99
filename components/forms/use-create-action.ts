"use client";

import { startTransition, useActionState, useCallback, useEffect, useState } from "react";
import { refreshBalance } from "@/components/ui/balance-store";
import { IDLE_STATE, type CreateTaskState } from "@/lib/tasks/create/action-state";

export type CreateAction = (state: CreateTaskState, form: FormData) => Promise<CreateTaskState>;

/**
 * A create-task server action for a form: `submit` for onSubmit (no automatic form reset, the
 * controlled fields keep what the user chose, ready for the next run), field errors that clear
 * as the user edits the field, and the balance refreshed after each answer (charged, or a short
 * balance said again). The workspace learns of a new task from the action it hands the form.
 */
export function useCreateAction(action: CreateAction) {
  const [state, dispatch, pending] = useActionState(action, IDLE_STATE);
  const [cleared, setCleared] = useState<{ state: CreateTaskState; fields: Set<string> }>({ state, fields: new Set() });

  useEffect(() => {
    if (state.status !== "idle") void refreshBalance();
  }, [state]);

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
