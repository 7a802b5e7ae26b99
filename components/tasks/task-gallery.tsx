import { ChevronLeft, ChevronRight, GitCompareArrows, SearchX, Sparkles } from "lucide-react";
import Link from "@/components/ui/link";
import { SampleImages } from "@/components/start/sample-images";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { galleryHref } from "@/lib/tasks/read/gallery-href";
import type { GalleryCard } from "@/lib/tasks/read/gallery-cards";
import type { HistoryFilter } from "@/lib/tasks/read/queries";
import { GalleryFilters } from "./gallery-filters";
import { COMPARE_FORM_ID, TaskCard } from "./task-card";

interface Props {
  /** The gallery's path, "/" or "/tasks": filters, pages and deletes come back to it. */
  base: string;
  /** The page's title for the gallery (an h1 or h2). */
  heading: React.ReactNode;
  /** This page of the user's tasks, newest first (lib/tasks/read/gallery-cards.ts). */
  tasks: GalleryCard[];
  hasNext: boolean;
  filter: HistoryFilter;
  /** A task was just deleted (`?deleted=`): say so. */
  deleted: boolean;
  /** What a new account's empty gallery says before its samples. */
  emptyHint: React.ReactNode;
  /** Leave the filters out while the account has no task at all (the home page, where they would only be noise). */
  filtersOnlyWithTasks?: boolean;
}

/**
 * The user's tasks as a grid of covers, with kind and state filters in the address, "Compare
 * selected" (the cards' boxes belong to its form), pages, and for a new account the sample
 * images to start from. The home page and /tasks both show it, under their own heading.
 */
export function TaskGallery({ base, heading, tasks, hasNext, filter, deleted, emptyHint, filtersOnlyWithTasks = false }: Props) {
  const filtered = filter.kind !== undefined || filter.state !== undefined;
  const fresh = tasks.length === 0 && !filtered && filter.page === 1;
  const here = galleryHref(base, filter);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        {heading}
        {tasks.length > 0 ? (
          // Ticking two cards and sending opens /compare?t=<a>&t=<b>; none ticked, the compare page's own picker.
          <form id={COMPARE_FORM_ID} action="/compare" method="get">
            <Button type="submit" variant="outline" size="sm">
              <GitCompareArrows aria-hidden />
              Compare selected
            </Button>
          </form>
        ) : null}
      </div>
      {fresh && filtersOnlyWithTasks ? null : <GalleryFilters base={base} kind={filter.kind} state={filter.state} />}
      {deleted ? (
        <p role="status" data-testid="deleted-status" className="rounded-lg border bg-card p-3 text-body text-foreground/85">
          Task deleted: its files and share link are gone. The credits it cost stay spent.
        </p>
      ) : null}
      {tasks.length > 0 ? (
        <ul
          data-testid="task-history"
          className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4 xl:grid-cols-5"
          aria-label="Your tasks"
        >
          {tasks.map((task) => (
            <TaskCard key={task.id} task={task} here={here} />
          ))}
        </ul>
      ) : fresh ? (
        <Card data-testid="history-empty">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Sparkles className="size-5 text-primary" aria-hidden />
              No tasks yet
            </CardTitle>
            <CardDescription>{emptyHint}</CardDescription>
          </CardHeader>
          <CardContent>
            <SampleImages />
          </CardContent>
        </Card>
      ) : (
        <Card data-testid="history-empty" className="flex flex-col items-center gap-3 p-8 text-center text-muted-foreground">
          <SearchX className="size-8" aria-hidden />
          <p>
            No tasks match.{" "}
            <Link href={base} className="text-primary underline underline-offset-4">
              Show all tasks
            </Link>
            .
          </p>
        </Card>
      )}
      {filter.page > 1 || hasNext ? (
        <nav className="flex items-center justify-between gap-3 pt-2" aria-label="Pages">
          {filter.page > 1 ? (
            <Button asChild variant="outline" size="sm">
              <Link href={galleryHref(base, { ...filter, page: filter.page - 1 })} rel="prev">
                <ChevronLeft aria-hidden />
                Previous
              </Link>
            </Button>
          ) : (
            <span />
          )}
          <span className="text-body text-muted-foreground">Page {filter.page}</span>
          {hasNext ? (
            <Button asChild variant="outline" size="sm">
              <Link href={galleryHref(base, { ...filter, page: filter.page + 1 })} rel="next">
                Next
                <ChevronRight aria-hidden />
              </Link>
            </Button>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  );
}
