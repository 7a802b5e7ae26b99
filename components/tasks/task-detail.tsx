"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect } from "react";
import type { TaskInputView } from "@/lib/tasks/input-entries";
import type { TaskView } from "@/lib/tasks/queries";
import type { ShareActionResult } from "@/lib/tasks/share";
import { printSizing } from "@/lib/viewer/print-size";
import { CoverAndOptions } from "./cover-and-options";
import { DeleteTaskButton } from "./delete-task-button";
import { LocalTime } from "./local-time";
import { ResultActions } from "./result-actions";
import { ResultViewer } from "./result-viewer";
import { ShareControls } from "./share-controls";
import { StateTimeline } from "./state-timeline";
import { TaskInputs } from "./task-inputs";
import { KIND_LABELS, STATE_LABELS } from "./task-labels";
import { useFinishNotification } from "./use-finish-notification";
import { useTaskEvents } from "./use-task-events";
import { useTaskTitle } from "./use-task-title";

async function fetchTask(id: string): Promise<TaskView> {
  // no-cache: the browser revalidates with the ETag it holds, and an unchanged task comes back as 304.
  const res = await fetch(`/api/tasks/${encodeURIComponent(id)}`, { cache: "no-cache" });
  if (!res.ok) throw new Error(res.status === 404 ? "This task no longer exists." : "The task could not be loaded.");
  return (await res.json()) as TaskView;
}

interface Props {
  initial: TaskView;
  /** What it was made from (fixed once created: not part of the polled view). */
  inputs: readonly TaskInputView[];
  sharePath: string | null;
  createShare: (taskId: string) => Promise<ShareActionResult>;
  revokeShare: (taskId: string) => Promise<ShareActionResult>;
}

/** The task page: polls the studio's status route until the task settles, then shows the result or the reason it failed. */
export function TaskDetail({ initial, inputs, sharePath, createShare, revokeShare }: Props) {
  const queryClient = useQueryClient();
  // Each change of the task refetches it at once; polling stays, slower while the stream is open.
  const { pollMs } = useTaskEvents();
  const { data: task = initial, error } = useQuery({
    queryKey: ["task", initial.id],
    queryFn: () => fetchTask(initial.id),
    initialData: initial,
    // Polls until the task settles (failed, or done with its result stored), then stops.
    refetchInterval: (query) => (query.state.data?.settled ? false : pollMs),
    refetchIntervalInBackground: false,
  });
  useTaskTitle(task);
  useFinishNotification(task);

  // A finished task changes the balance (charged, or refunded).
  useEffect(() => {
    if (task.settled) void queryClient.invalidateQueries({ queryKey: ["balance"] });
  }, [task.settled, queryClient]);

  return (
    <div className="space-y-8">
      <header className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">{KIND_LABELS[task.kind]}</h1>
        <span data-testid="task-state" data-state={task.state} className="text-sm text-foreground/85">
          {STATE_LABELS[task.state]}
        </span>
        <span className="text-sm text-muted-foreground">
          started <LocalTime iso={task.createdAt} /> · {task.cost} credits
        </span>
        <span className="ml-auto">
          <DeleteTaskButton taskId={task.id} />
        </span>
      </header>

      <StateTimeline state={task.state} stateTimes={task.stateTimes} createdAt={task.createdAt} />
      {error || task.problem ? <p className="text-sm text-warning">{error?.message ?? task.problem}</p> : null}

      {task.state === "failed" ? (
        <section role="alert" data-testid="task-failure" className="rounded-lg border border-destructive/50 bg-destructive/10 p-4">
          <h2 className="font-medium text-destructive">This task failed</h2>
          <p className="mt-1 text-sm">{task.errorMessage ?? "The service could not finish it."}</p>
          {task.refunded ? (
            <p className="mt-1 text-sm text-foreground/85" data-testid="refund">
              {task.cost > 0 ? `The ${task.cost} credits it cost were refunded to your balance.` : "Its credits were refunded."}
            </p>
          ) : null}
        </section>
      ) : null}

      {task.state === "success" && !task.result.stored ? <p className="text-sm text-muted-foreground">Saving the result…</p> : null}

      {task.result.url && task.result.format ? (
        <section className="space-y-4" aria-label="Result">
          <ResultViewer
            url={task.result.url}
            format={task.result.format}
            display={task.display}
            className="h-[28rem] w-full"
            name={`${task.kind}-${task.createdAt.slice(0, 10)}`}
            sizing={printSizing(task.kind, task.options)}
          />
          <div className="flex flex-wrap items-center gap-4">
            <a
              href={task.result.downloadUrl ?? task.result.url}
              download
              className="rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground hover:bg-primary/90"
            >
              Download {task.result.format.toUpperCase()}
            </a>
            <ResultActions taskId={task.id} format={task.result.format} hasCover={task.cover.stored} />
            <Link
              href={`/compare?t=${encodeURIComponent(task.id)}`}
              className="rounded-md border border-border px-3 py-1.5 text-sm hover:border-primary"
            >
              Compare with…
            </Link>
          </div>
        </section>
      ) : null}

      <TaskInputs inputs={inputs} />

      <CoverAndOptions coverUrl={task.cover.url} kind={task.kind} options={task.options} />

      {task.result.stored ? (
        <ShareControls taskId={task.id} initialPath={sharePath} createShare={createShare} revokeShare={revokeShare} />
      ) : null}
    </div>
  );
}
