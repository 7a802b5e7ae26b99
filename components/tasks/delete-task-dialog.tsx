"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";

interface Props {
  taskId: string;
  /** Where to go once it is deleted (the history, which then says so). */
  href: string;
  /** How many times the artist asked: each change opens the dialog. */
  asked: number;
}

/**
 * The confirm step of "Delete": a modal dialog (Escape or Cancel closes it, focus starts on
 * Cancel) whose "Delete task" calls DELETE /api/tasks/<id>, then goes to `href`.
 */
export function DeleteTaskDialog({ taskId, href, asked }: Props) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ asked: number; message: string } | null>(null);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    dialog.current?.showModal();
  }, [asked]);

  const remove = async () => {
    setPending(true);
    setError(null);
    try {
      const res = await fetch(`/api/tasks/${encodeURIComponent(taskId)}`, { method: "DELETE" });
      // 404: already deleted (another tab, say): gone all the same.
      if (res.status === 204 || res.status === 404) {
        dialog.current?.close();
        router.push(href);
        return;
      }
      const body = (await res.json().catch(() => null)) as { error?: unknown } | null;
      setError({ asked, message: typeof body?.error === "string" ? body.error : `The task could not be deleted (HTTP ${res.status}).` });
    } catch {
      setError({ asked, message: "The studio could not be reached: the task was not deleted. Try again." });
    } finally {
      setPending(false);
    }
  };

  // A new opening starts without the last one's error.
  const shownError = error?.asked === asked ? error.message : null;
  return (
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
      {shownError ? (
        <p role="alert" className="mt-2 text-sm text-destructive">
          {shownError}
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
  );
}
