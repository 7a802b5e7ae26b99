import { RotateCcw } from "lucide-react";
import Link from "@/components/ui/link";
import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import type { GalleryCard } from "@/lib/tasks/read/gallery-cards";
import { CardPicture } from "./card-picture";
import { DeleteTaskButton } from "./delete-task-button";
import { KindIcon } from "./kind-icon";
import { RelativeTime } from "./relative-time";
import { LiveStateBadge, StateLabel } from "./state-badge";
import { KIND_FORMS, KIND_LABELS } from "./task-labels";

/** The id of the form the cards' compare boxes belong to (the gallery's toolbar renders it). */
export const COMPARE_FORM_ID = "compare-pick";

/**
 * A task in the gallery: its cover (until there is one, the image it came from), its state on the
 * cover, kind and age, a box to pick finished ones to compare, "run again" and "delete" (which
 * comes back to `here`, this page of the gallery).
 */
export function TaskCard({ task, here }: { task: GalleryCard; here: string }) {
  const href = `/tasks/${task.id}`;
  const label = KIND_LABELS[task.kind];
  return (
    <li
      data-testid="task-row"
      className="group flex min-w-0 flex-col overflow-hidden rounded-lg border bg-card text-card-foreground shadow-sm transition-shadow hover:shadow-md"
    >
      <div className="relative aspect-square bg-muted">
        {/* The same link as the kind's name below: one stop for the keyboard and one name for a screen reader. */}
        <Link href={href} tabIndex={-1} aria-hidden className="block size-full">
          <CardPicture kind={task.kind} coverUrl={task.coverUrl} previewUrl={task.previewUrl} live={task.live} />
        </Link>
        <span className="absolute top-2 right-2 rounded-full bg-card shadow-sm">
          {task.live ? <LiveStateBadge id={task.id} initial={task.state} /> : <StateLabel state={task.state} />}
        </span>
        {task.state === "success" ? (
          // A 32 px target around the box, on a card-coloured chip so it reads on any cover.
          <label className="absolute top-1 left-1 flex size-8 cursor-pointer items-center justify-center rounded-md bg-card/90 shadow-sm">
            <input
              type="checkbox"
              form={COMPARE_FORM_ID}
              name="t"
              value={task.id}
              aria-label="Select to compare"
              className="size-4 cursor-pointer accent-primary"
            />
          </label>
        ) : null}
      </div>
      <div className="flex min-w-0 flex-col gap-0.5 pt-2 pr-1 pb-1 pl-3">
        <Link
          href={href}
          className="flex min-h-6 min-w-0 items-center gap-1.5 rounded-sm pr-2 leading-snug font-medium outline-none hover:text-primary focus-visible:ring-2 focus-visible:ring-ring"
        >
          <KindIcon kind={task.kind} className="size-4 shrink-0 text-muted-foreground" />
          {label}
        </Link>
        <div className="flex items-center gap-1">
          <RelativeTime iso={task.createdAt} className="min-w-0 flex-1 truncate text-caption text-muted-foreground" />
          <Tooltip>
            <TooltipTrigger asChild>
              <Button asChild variant="ghost" size="icon-sm" className="text-muted-foreground">
                <Link href={`${KIND_FORMS[task.kind]}?again=${encodeURIComponent(task.id)}`} aria-label="Run again">
                  <RotateCcw aria-hidden />
                </Link>
              </Button>
            </TooltipTrigger>
            <TooltipContent>Run again: its form with the same inputs and options</TooltipContent>
          </Tooltip>
          <DeleteTaskButton
            compact
            taskId={task.id}
            history={here}
            label={`Delete the ${label} task of ${task.createdAt.slice(0, 16).replace("T", " ")} UTC`}
          />
        </div>
      </div>
    </li>
  );
}
