"use client";

import { cn } from "@/components/ui/cn";
import type { TaskState } from "@/lib/tasks/model/task-types";
import { formatDuration, LocalTime } from "./local-time";
import { isFinished } from "./task-labels";
import { useClock } from "./use-clock";

const STEPS = [
  { key: "created", label: "Created" },
  { key: "queueing", label: "Queueing" },
  { key: "processing", label: "Processing" },
  { key: "done", label: "Done" },
] as const;
const ORDER: Record<TaskState, number> = { checking: 0, created: 0, queueing: 1, processing: 2, success: 3, failed: 3 };

interface Props {
  state: TaskState;
  stateTimes: Partial<Record<TaskState, string>>;
  createdAt: string;
  /** Steps side by side (the progress in the viewer's place), or one under another (a side panel). */
  layout?: "row" | "column";
}

/** created → queueing → processing → done, with when each was reached and the time taken so far. */
export function StateTimeline({ state, stateTimes, createdAt, layout = "row" }: Props) {
  const clock = useClock();
  const start = Date.parse(stateTimes.created ?? createdAt);
  const finishedAt = stateTimes.success ?? stateTimes.failed;
  const end = isFinished(state) && finishedAt ? Date.parse(finishedAt) : clock;
  const reached = ORDER[state];

  return (
    <div>
      <ol className={cn("flex gap-2", layout === "row" ? "flex-wrap items-start" : "flex-col")} aria-label="Progress">
        {STEPS.map((step, i) => {
          const at = step.key === "done" ? finishedAt : stateTimes[step.key];
          const current = i === reached && !isFinished(state);
          const passed = i <= reached;
          const failedStep = step.key === "done" && state === "failed";
          const tone = failedStep
            ? "border-destructive/50 text-destructive"
            : current
              ? "border-primary text-primary"
              : passed
                ? "border-success/50 text-success"
                : "border-border text-muted-foreground";
          return (
            <li
              key={step.key}
              data-testid={`step-${step.key}`}
              data-state={current ? "current" : passed ? "passed" : "pending"}
              className={cn(
                "rounded-md border bg-card px-3 py-2 text-body",
                layout === "row" ? "min-w-32 flex-1" : "flex items-baseline justify-between gap-3",
                tone,
              )}
            >
              <div className="font-medium">{failedStep ? "Failed" : step.label}</div>
              <div className={cn("text-caption text-muted-foreground", layout === "row" && "mt-0.5")}>
                {at ? <LocalTime iso={at} /> : passed ? "passed" : current ? "now" : "—"}
                {at && i > 0 ? ` (+${formatDuration(Date.parse(at) - start)})` : null}
              </div>
            </li>
          );
        })}
      </ol>
      <p className="mt-2 text-body text-muted-foreground" data-testid="elapsed">
        {isFinished(state) ? "Took " : "Elapsed: "}
        {end === null ? "…" : formatDuration(end - start)}
      </p>
    </div>
  );
}
