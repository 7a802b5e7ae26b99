"use client";

import { useQuery } from "@tanstack/react-query";
import { Loader2, X } from "lucide-react";
import { CompareView } from "@/components/tasks/compare-view";
import { LocalTime } from "@/components/tasks/local-time";
import { describeOptions } from "@/components/tasks/option-labels";
import { KIND_LABELS, STATE_LABELS } from "@/components/tasks/task-labels";
import { Button } from "@/components/ui/button";
import type { CompareOutcome } from "@/lib/tasks/read/compare";
import type { TaskView } from "@/lib/tasks/model/task-view";
import { STAGE_BAR, STAGE_BODY } from "./stage-classes";
import { TaskStateBadge } from "./task-state-badge";
import { useTaskView } from "./use-task-view";

async function fetchCompare(a: string, b: string): Promise<CompareOutcome> {
  const res = await fetch(`/api/compare?t=${encodeURIComponent(a)}&t=${encodeURIComponent(b)}`, { cache: "no-store" });
  if (res.status === 404) return { status: "not-found" };
  if (!res.ok) throw new Error("The two results could not be loaded.");
  return (await res.json()) as CompareOutcome;
}

interface Props {
  /** The older of the two (A, on the left) and the newer (B). */
  a: TaskView;
  b: TaskView;
  onClose(): void;
}

/**
 * Two results side by side in the middle of the workspace, with one camera, their stats and the
 * options that differ (as /compare shows them). A result still running is waited for.
 */
export function CompareStage({ a: initialA, b: initialB, onClose }: Props) {
  const a = useTaskView(initialA);
  const b = useTaskView(initialB);
  const ready = a.result.stored && b.result.stored;
  const { data, error } = useQuery({
    queryKey: ["compare", a.id, b.id],
    queryFn: () => fetchCompare(a.id, b.id),
    enabled: ready,
    staleTime: Infinity,
  });

  return (
    <>
      <div className={STAGE_BAR}>
        <h2 className="text-body font-semibold">Compare</h2>
        <Side label="A" task={a} />
        <span className="text-caption text-muted-foreground" aria-hidden>
          ↔
        </span>
        <Side label="B" task={b} />
        <Button variant="ghost" size="sm" className="ml-auto" onClick={onClose}>
          <X aria-hidden />
          Stop comparing
        </Button>
      </div>
      <div className={STAGE_BODY} data-testid="stage">
        <div className="p-3">
          {!ready ? (
            <Waiting tasks={[a, b]} />
          ) : error ? (
            <p role="alert" className="text-body text-destructive">
              {error.message}
            </p>
          ) : !data ? (
            <p role="status" className="flex items-center gap-2 text-body text-muted-foreground">
              <Loader2 className="size-4 animate-spin" aria-hidden /> Loading the two results…
            </p>
          ) : data.status === "ok" ? (
            <>
              <DiffSummary outcome={data} />
              <CompareView
                a={data.a}
                b={data.b}
                differing={data.differing}
                viewerClassName="h-[45dvh] min-h-64 w-full lg:h-[calc(100dvh-var(--spacing-header)-11rem)]"
              />
            </>
          ) : (
            <p className="text-body text-muted-foreground">
              {data.status === "not-found" ? "One of the two results no longer exists." : data.reason}
            </p>
          )}
        </div>
      </div>
    </>
  );
}

/** The options that differ, in one line over the viewers (the table under them says it at length). */
function DiffSummary({ outcome }: { outcome: Extract<CompareOutcome, { status: "ok" }> }) {
  const { a, b, differing } = outcome;
  const value = (side: typeof a, key: string) => describeOptions(side.kind, { [key]: side.options[key] })[0];
  return (
    <p className="mb-3 flex flex-wrap items-center gap-1.5 text-caption text-muted-foreground" data-testid="compare-summary">
      {differing.length === 0 ? (
        "Both were made with the same settings."
      ) : (
        <>
          <span>Differs in</span>
          {differing.map((key) => {
            const [label, valueA] = value(a, key) ?? [key, "—"];
            const valueB = value(b, key)?.[1] ?? "—";
            return (
              <span key={key} className="rounded-md border border-border bg-card px-1.5 py-0.5 text-foreground">
                {label}: {valueA} → {valueB}
              </span>
            );
          })}
        </>
      )}
    </p>
  );
}

function Side({ label, task }: { label: string; task: TaskView }) {
  return (
    <span className="flex items-center gap-1.5 text-caption text-muted-foreground">
      <span className="font-semibold text-foreground">{label}</span>
      <LocalTime iso={task.createdAt} />
      {task.state === "success" ? null : <TaskStateBadge state={task.state} />}
    </span>
  );
}

/** Either result still on its way: compared as soon as both are done. */
function Waiting({ tasks }: { tasks: TaskView[] }) {
  const failed = tasks.find((t) => t.state === "failed");
  return (
    <div className="flex h-full min-h-64 flex-col items-center justify-center gap-3 rounded-lg bg-viewer p-6 text-center" role="status">
      {failed ? null : <Loader2 className="size-8 animate-spin text-primary motion-reduce:animate-none" aria-hidden />}
      <p className="text-title font-semibold">
        {failed ? `The ${KIND_LABELS[failed.kind]} run of this pair failed: nothing to compare.` : "Comparing as soon as both are done"}
      </p>
      <ul className="text-body text-muted-foreground">
        {tasks.map((t, i) => (
          <li key={t.id}>
            {i === 0 ? "A" : "B"}: {STATE_LABELS[t.state]}
          </li>
        ))}
      </ul>
    </div>
  );
}
