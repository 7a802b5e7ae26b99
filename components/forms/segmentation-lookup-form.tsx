"use client";

import { ScriptButton } from "@/components/ui/script-button";
import { Field, FormAlert, inputClass } from "./fields";
import { useCreateAction, type CreateAction } from "./use-create-action";

/** Opens one of the user's segmentation tasks by its service task id (lookUpSegmentationTask). */
export function SegmentationLookupForm({ action }: { action: CreateAction }) {
  const { errors, message, pending, submit, clearError } = useCreateAction(action);
  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-start gap-3">
      <div className="min-w-72 flex-1">
        <Field label="Task id" error={errors.task_id}>
          {({ id, describedBy }) => (
            <input
              id={id}
              aria-describedby={describedBy}
              name="task_id"
              placeholder="segmentation_20250312_ab12cd"
              autoComplete="off"
              aria-invalid={!!errors.task_id}
              onChange={() => clearError("task_id")}
              className={inputClass}
            />
          )}
        </Field>
      </div>
      <ScriptButton
        type="submit"
        disabled={pending}
        className="mt-6 rounded-md border border-input px-4 py-2 text-sm hover:border-primary disabled:opacity-50"
      >
        {pending ? "Looking up…" : "Look up"}
      </ScriptButton>
      <div className="basis-full">
        <FormAlert message={message} />
      </div>
    </form>
  );
}
