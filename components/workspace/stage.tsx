"use client";

import { ArrowDown, Download, ExternalLink, Loader2, Sparkles, TriangleAlert } from "lucide-react";
import Link from "next/link";
import { LocalTime } from "@/components/tasks/local-time";
import { ResultViewer } from "@/components/tasks/result-viewer";
import { StateTimeline } from "@/components/tasks/state-timeline";
import { FAILED_WITHOUT_REASON, KIND_LABELS, refundSentence, STATE_LABELS } from "@/components/tasks/task-labels";
import { Button } from "@/components/ui/button";
import type { TaskView } from "@/lib/tasks/queries";
import type { StudioTaskKind } from "@/lib/tasks/task-types";
import { printSizing } from "@/lib/viewer/print-size";
import { TaskStateBadge } from "./task-state-badge";
import { useTaskView } from "./use-task-view";

/** How tall the viewer's place is: most of a phone's screen, the whole middle column from 1024 px. */
export const STAGE_HEIGHT = "h-[60dvh] min-h-80 lg:h-full lg:min-h-0";

/**
 * The middle column's bar and body. Under 1024 px the workspace is one column and the body's
 * parts take their places in it: the viewer (its first child) under the bar, then the strip of
 * results, then what the viewer puts under itself (the print panel), then the form.
 */
export const STAGE_BAR = "order-1 flex min-h-12 flex-wrap items-center gap-x-3 gap-y-1 border-b border-border px-3 py-1.5 lg:order-none";
export const STAGE_BODY =
  "contents max-lg:[&>*]:order-4 max-lg:[&>*:first-child]:order-2 lg:relative lg:block lg:min-h-0 lg:flex-1 lg:overflow-y-auto";

/** What to do first, by kind, said in the empty viewer. */
const FIRST_STEP: Record<StudioTaskKind, string> = {
  "image-to-3d": "Add a photo, pick the options and press Create 3D model.",
  texture: "Pick a GLB model and the image to paint it with, then press Texture the model.",
  split: "Pick a model and how to cut it, then press Split the model.",
  depth: "Add an image, set the relief and press Make the depth map.",
  segmentation: "Pick a model and press Segment the model.",
};

/** The bar over the viewer: what is shown, its state, and where to take it. */
export function StageHeader({ task }: { task: TaskView }) {
  const download = task.result.downloadUrl;
  return (
    <div className={STAGE_BAR}>
      <h2 className="text-body font-semibold">{KIND_LABELS[task.kind]}</h2>
      <TaskStateBadge state={task.state} data-testid="task-state" />
      <span className="text-caption text-muted-foreground">
        <LocalTime iso={task.createdAt} /> · {task.cost} credits
      </span>
      <span className="ml-auto flex items-center gap-1">
        {download && task.result.format ? (
          <Button asChild variant="outline" size="sm">
            <a href={download} download>
              <Download aria-hidden />
              Download {task.result.format.toUpperCase()}
            </a>
          </Button>
        ) : null}
        <Button asChild variant="ghost" size="sm">
          <Link href={`/tasks/${encodeURIComponent(task.id)}`}>
            <ExternalLink aria-hidden />
            Open task page
          </Link>
        </Button>
      </span>
    </div>
  );
}

/** The middle of the workspace for one task, kept current: its header over its result, its live state, or why it failed. */
export function TaskStage({ initial }: { initial: TaskView }) {
  const task = useTaskView(initial);
  return (
    <>
      <StageHeader task={task} />
      <div className={STAGE_BODY} data-testid="stage">
        <StageBody task={task} />
      </div>
    </>
  );
}

function StageBody({ task }: { task: TaskView }) {
  if (task.state === "failed") return <FailedPanel task={task} />;
  if (task.result.url && task.result.format) {
    return (
      <ResultViewer
        url={task.result.url}
        format={task.result.format}
        display={task.display}
        className={`${STAGE_HEIGHT} w-full rounded-none! border-x-0! border-t-0!`}
        name={`${task.kind}-${task.createdAt.slice(0, 10)}`}
        sizing={printSizing(task.kind, task.options)}
      />
    );
  }
  return <RunningPanel task={task} />;
}

/** A task on its way, big where its result will be: its state, the time so far and its steps. */
function RunningPanel({ task }: { task: TaskView }) {
  const saving = task.state === "success";
  return (
    <div
      className={`${STAGE_HEIGHT} flex flex-col items-center justify-center gap-6 bg-viewer p-6 text-center`}
      data-testid="stage-running"
    >
      <Loader2 className="size-10 animate-spin text-primary motion-reduce:animate-none" aria-hidden />
      <div role="status" aria-live="polite" className="space-y-1">
        <p className="text-display font-semibold tracking-tight">{saving ? "Saving the result…" : STATE_LABELS[task.state]}</p>
        <p className="text-body text-muted-foreground">
          {saving ? "It opens here in a moment." : "Your model opens here when it is done. You can start another run meanwhile."}
        </p>
      </div>
      <div className="w-full max-w-xl text-left">
        <StateTimeline state={task.state} stateTimes={task.stateTimes} createdAt={task.createdAt} />
      </div>
      {task.problem ? <p className="max-w-xl text-body text-warning">{task.problem}</p> : null}
    </div>
  );
}

/** Why the task failed, and that its credits came back. */
function FailedPanel({ task }: { task: TaskView }) {
  return (
    <div className={`${STAGE_HEIGHT} flex items-center justify-center bg-viewer p-6`}>
      <section
        role="alert"
        data-testid="task-failure"
        className="max-w-md space-y-2 rounded-lg border border-destructive/50 bg-card p-5 text-center"
      >
        <TriangleAlert className="mx-auto size-8 text-destructive" aria-hidden />
        <h3 className="text-title font-semibold text-destructive">This run failed</h3>
        <p className="text-body">{task.errorMessage ?? FAILED_WITHOUT_REASON}</p>
        {task.refunded ? (
          <p className="text-body text-muted-foreground" data-testid="refund">
            {refundSentence(task.cost)}
          </p>
        ) : null}
        <p className="text-caption text-muted-foreground">Its settings are in the form: change one and run it again.</p>
      </section>
    </div>
  );
}

/** The viewer's place before anything is shown: what to do, and (on a phone) the way down to the form. */
export function EmptyStage({ kind }: { kind: StudioTaskKind }) {
  return (
    <div
      className={`${STAGE_HEIGHT} order-2 flex flex-col items-center justify-center gap-3 bg-viewer p-6 text-center lg:order-none`}
      data-testid="stage-empty"
    >
      <span className="flex size-16 items-center justify-center rounded-2xl border border-border bg-card text-primary shadow-sm">
        <Sparkles className="size-8" aria-hidden />
      </span>
      <p className="text-title font-semibold">Your model appears here</p>
      <p className="max-w-sm text-body text-muted-foreground">{FIRST_STEP[kind]}</p>
      <p className="max-w-sm text-caption text-muted-foreground">
        Every run lines up beside it: pick one to see it again and to fill the form with its settings.
      </p>
      <Button asChild variant="secondary" size="sm" className="lg:hidden">
        <a href="#workspace-form">
          <ArrowDown aria-hidden />
          To the form
        </a>
      </Button>
    </div>
  );
}
