"use client";

import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { ScriptButton } from "@/components/ui/script-button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";

/**
 * The history page (`history`, with its filters) saying that `taskId` was deleted: the id
 * makes each such address new, so the page is fetched again even when already there.
 */
function deletedHref(taskId: string, history: string): string {
  return `${history}${history.includes("?") ? "&" : "?"}deleted=${encodeURIComponent(taskId)}`;
}

interface Props {
  taskId: string;
  /** The history page to go to once it is deleted (with its filters), which then says so. */
  history?: string;
  /** Says which task, for a button among many (history rows). */
  label?: string;
  /** A bin icon with a "Delete" tooltip instead of the word (a gallery card); `label` still names it. */
  compact?: boolean;
}

/**
 * "Delete" with a confirm step: a modal dialog (Escape or Cancel closes it, focus starts on
 * Cancel) whose "Delete task" calls DELETE /api/tasks/<id>, then goes to the history.
 */
export function DeleteTaskButton({ taskId, history = "/tasks", label, compact = false }: Props) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const textId = useId();

  const remove = async () => {
    setPending(true);
    setError(null);
    try {
      const res = await fetch(`/api/tasks/${encodeURIComponent(taskId)}`, { method: "DELETE" });
      // 404: already deleted (another tab, say): gone all the same.
      if (res.status === 204 || res.status === 404) {
        dialog.current?.close();
        router.push(deletedHref(taskId, history));
        return;
      }
      const body = (await res.json().catch(() => null)) as { error?: unknown } | null;
      setError(typeof body?.error === "string" ? body.error : `The task could not be deleted (HTTP ${res.status}).`);
    } catch {
      setError("The studio could not be reached: the task was not deleted. Try again.");
    } finally {
      setPending(false);
    }
  };

  const open = () => {
    setError(null);
    dialog.current?.showModal();
  };

  return (
    <>
      {compact ? (
        <Tooltip>
          <TooltipTrigger asChild>
            <ScriptButton
              type="button"
              aria-label={label ?? "Delete"}
              className={cn(buttonVariants({ variant: "ghost", size: "icon-sm" }), "text-muted-foreground hover:text-destructive")}
              onClick={open}
            >
              <Trash2 aria-hidden />
            </ScriptButton>
          </TooltipTrigger>
          <TooltipContent>Delete</TooltipContent>
        </Tooltip>
      ) : (
        <ScriptButton
          type="button"
          aria-label={label}
          className="rounded-md border border-destructive/50 px-3 py-1.5 text-sm text-destructive hover:border-destructive/50 disabled:opacity-50"
          onClick={open}
        >
          Delete
        </ScriptButton>
      )}
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        aria-describedby={textId}
        data-testid="delete-dialog"
        className="m-auto max-w-md rounded-lg border border-border bg-card p-6 text-foreground backdrop:bg-black/60"
      >
        <h2 id={titleId} className="text-lg font-semibold">
          Delete this task?
        </h2>
        <p id={textId} className="mt-2 text-sm text-foreground/85">
          Its result, cover and share link are removed now, and cannot be brought back. The credits it cost are not refunded.
        </p>
        {error ? (
          <p role="alert" className="mt-2 text-sm text-destructive">
            {error}
          </p>
        ) : null}
        <div className="mt-5 flex justify-end gap-3">
          {/* First, so the dialog opens with focus here rather than on the destructive button. */}
          <button
            type="button"
            className="rounded-md border border-border px-3 py-1.5 text-sm hover:border-primary"
            onClick={() => dialog.current?.close()}
          >
            Cancel
          </button>
          <button
            type="button"
            disabled={pending}
            className="rounded-md bg-destructive px-3 py-1.5 text-sm font-medium text-destructive-foreground hover:bg-destructive/90 disabled:opacity-50"
            onClick={() => void remove()}
          >
            {pending ? "Deleting…" : "Delete task"}
          </button>
        </div>
      </dialog>
    </>
  );
}
