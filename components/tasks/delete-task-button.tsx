"use client";

import { Trash2 } from "lucide-react";
import { lazy, Suspense, useState } from "react";
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

const loadDialog = () => import("./delete-task-dialog");
const DeleteTaskDialog = lazy(() => loadDialog().then((m) => ({ default: m.DeleteTaskDialog })));

/**
 * "Delete" with a confirm step: a modal dialog (Escape or Cancel closes it, focus starts on
 * Cancel) whose "Delete task" calls DELETE /api/tasks/<id>, then goes to the history.
 */
export function DeleteTaskButton({ taskId, history = "/tasks", label, compact = false }: Props) {
  // The dialog's code loads on the first hover, focus or click of the button; it opens once here.
  const [asked, setAsked] = useState(0);
  const open = () => setAsked((n) => n + 1);
  const preload = () => void loadDialog();

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
              onPointerEnter={preload}
              onFocus={preload}
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
          onPointerEnter={preload}
          onFocus={preload}
        >
          Delete
        </ScriptButton>
      )}
      {asked > 0 ? (
        <Suspense fallback={null}>
          <DeleteTaskDialog taskId={taskId} href={deletedHref(taskId, history)} asked={asked} />
        </Suspense>
      ) : null}
    </>
  );
}
