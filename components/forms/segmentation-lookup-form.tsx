"use client";

import { Search } from "lucide-react";
import { buttonVariants } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { ScriptButton } from "@/components/ui/script-button";
import { Field, FormAlert } from "./fields";
import { useCreateAction, type CreateAction } from "./use-create-action";

/** Opens one of the user's segmentation tasks by its service task id (lookUpSegmentationTask). */
export function SegmentationLookupForm({ action }: { action: CreateAction }) {
  const { errors, message, pending, submit, clearError } = useCreateAction(action);
  return (
    <form onSubmit={submit} noValidate className="w-full max-w-panel space-y-3">
      <Field label="Task id" error={errors.task_id}>
        {({ id, describedBy }) => (
          <div className="flex gap-2">
            <Input
              id={id}
              aria-describedby={describedBy}
              name="task_id"
              placeholder="segmentation_20250312_ab12cd"
              autoComplete="off"
              aria-invalid={!!errors.task_id}
              onChange={() => clearError("task_id")}
              className="font-mono text-caption"
            />
            <ScriptButton type="submit" disabled={pending} className={buttonVariants({ variant: "outline" })}>
              <Search aria-hidden />
              {pending ? "Looking up…" : "Look up"}
            </ScriptButton>
          </div>
        )}
      </Field>
      <FormAlert message={message} />
    </form>
  );
}
