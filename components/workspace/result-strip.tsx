"use client";

import { Box, ImageOff, Loader2 } from "lucide-react";
import { useEffect, useEffectEvent, useRef } from "react";
import { LocalTime } from "@/components/tasks/local-time";
import { KIND_LABELS, STATE_LABELS } from "@/components/tasks/task-labels";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import type { TaskView } from "@/lib/tasks/model/task-view";
import type { StudioTaskKind } from "@/lib/tasks/model/task-types";
import { TaskStateBadge } from "./task-state-badge";
import { useTaskView } from "./use-task-view";

interface Props {
  kind: StudioTaskKind;
  tasks: readonly TaskView[];
  selected: string | null;
  ticked: readonly string[];
  /** The two compared (A, B), marked on their cards. */
  compared: readonly [string, string] | null;
  onSelect(id: string): void;
  onTick(id: string, on: boolean): void;
  hasMore: boolean;
  loadingMore: boolean;
  onMore(): void;
}

/** "2025-03-12 14:03 UTC": the same text on the server and in every browser, for names. */
const utcLabel = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/**
 * The artist's results of one kind, newest first: a column of covers beside the viewer (a row
 * under it on narrow screens). A card shows its task; its box ticks it for comparing. More load
 * as the end of the strip comes into view, or with "Show more".
 */
export function ResultStrip({ kind, tasks, selected, ticked, compared, onSelect, onTick, hasMore, loadingMore, onMore }: Props) {
  const end = useRef<HTMLLIElement>(null);
  const more = useEffectEvent(onMore);
  useEffect(() => {
    const target = end.current;
    if (!target || !hasMore || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) more();
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasMore, tasks.length]);

  return (
    <div className="flex min-h-0 flex-col">
      <h2 className="flex items-baseline justify-between px-3 pt-3 pb-1 text-caption font-medium text-muted-foreground">
        <span>Your results</span>
        {tasks.length > 0 ? <span className="tabular-nums">{tasks.length}</span> : null}
      </h2>
      {ticked.length === 1 && !compared ? (
        <p role="status" className="px-3 pb-1 text-caption text-primary">
          Tick another result to compare with this one.
        </p>
      ) : null}
      {tasks.length === 0 ? (
        <p className="px-3 py-2 text-caption text-muted-foreground">Each {KIND_LABELS[kind].toLowerCase()} you make lines up here.</p>
      ) : null}
      <ul className="flex min-h-0 gap-2 overflow-x-auto p-2 pt-1 lg:flex-col lg:overflow-x-visible">
        {tasks.map((task) => (
          <ResultCard
            key={task.id}
            initial={task}
            selected={task.id === selected}
            ticked={ticked.includes(task.id)}
            mark={compared?.[0] === task.id ? "A" : compared?.[1] === task.id ? "B" : undefined}
            onSelect={onSelect}
            onTick={onTick}
          />
        ))}
        {hasMore ? (
          <li ref={end} className="flex w-28 shrink-0 items-center justify-center lg:w-auto">
            <Button variant="ghost" size="sm" onClick={onMore} disabled={loadingMore} className="w-full">
              {loadingMore ? <Loader2 className="animate-spin" aria-hidden /> : null}
              Show more
            </Button>
          </li>
        ) : null}
      </ul>
    </div>
  );
}

interface CardProps {
  initial: TaskView;
  selected: boolean;
  ticked: boolean;
  mark: "A" | "B" | undefined;
  onSelect(id: string): void;
  onTick(id: string, on: boolean): void;
}

/** One result: its cover (a tile while it has none), its state kept current, when it was made, and its compare box. */
function ResultCard({ initial, selected, ticked, mark, onSelect, onTick }: CardProps) {
  const task = useTaskView(initial);
  const name = `${KIND_LABELS[task.kind]} of ${utcLabel(task.createdAt)}`;
  return (
    <li
      data-testid="result-card"
      data-task-id={task.id}
      data-state={task.state}
      data-selected={selected}
      className={cn(
        "w-28 shrink-0 overflow-hidden rounded-lg border bg-card shadow-xs transition-colors lg:w-auto",
        selected ? "border-primary ring-2 ring-primary/40" : "border-border hover:border-primary/50",
      )}
    >
      <button
        type="button"
        onClick={() => onSelect(task.id)}
        aria-current={selected ? "true" : undefined}
        aria-label={`Show ${name} (${STATE_LABELS[task.state]})`}
        className="block w-full text-left outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
      >
        <span className="relative block aspect-square w-full bg-viewer">
          <Cover task={task} />
          <TaskStateBadge state={task.state} className="absolute top-1.5 left-1.5 shadow-xs" />
          {mark ? (
            <span
              className="absolute top-1.5 right-1.5 flex size-6 items-center justify-center rounded-md bg-primary text-caption font-semibold text-primary-foreground shadow-xs"
              title={`Compared as ${mark}`}
            >
              {mark}
            </span>
          ) : null}
        </span>
        <span className="block px-2 pt-1.5 pb-1 text-caption text-muted-foreground">
          <LocalTime iso={task.createdAt} />
        </span>
      </button>
      <label className="flex h-8 cursor-pointer items-center gap-2 border-t border-border px-2 text-caption text-muted-foreground hover:bg-accent hover:text-accent-foreground">
        <input
          type="checkbox"
          checked={ticked}
          onChange={(e) => onTick(task.id, e.currentTarget.checked)}
          aria-label={`Compare ${name}`}
          className="size-4 accent-primary"
        />
        Compare
      </label>
    </li>
  );
}

/** The result's cover, or a tile saying why there is none yet. */
function Cover({ task }: { task: TaskView }) {
  if (task.cover.url) {
    // eslint-disable-next-line @next/next/no-img-element -- a private file behind the session
    return <img src={task.cover.url} alt="" loading="lazy" className="size-full object-cover" />;
  }
  const Icon = task.state === "failed" ? ImageOff : task.settled ? Box : Loader2;
  return (
    <span className="flex size-full items-center justify-center text-muted-foreground" data-testid="cover-placeholder">
      <Icon className={cn("size-6", task.settled ? "" : "animate-spin motion-reduce:animate-none")} aria-hidden />
    </span>
  );
}
