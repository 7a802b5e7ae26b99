"use client";

import { ArrowDown, Download, ExternalLink, Sparkles } from "lucide-react";
import dynamic from "next/dynamic";
import Link from "@/components/ui/link";
import { LocalTime } from "@/components/tasks/local-time";
import { ResultViewer } from "@/components/tasks/result-viewer";
import { KIND_LABELS } from "@/components/tasks/task-labels";
import { Button } from "@/components/ui/button";
import type { TaskView } from "@/lib/tasks/model/task-view";
import type { StudioTaskKind } from "@/lib/tasks/model/task-types";
import { printSizing } from "@/lib/viewer/task-sizing";
import { STAGE_BAR, STAGE_BODY, STAGE_HEIGHT } from "./stage-classes";
import { TaskStateBadge } from "./task-state-badge";
import { useTaskView } from "./use-task-view";

// A running or failed task's panel: its code comes with the page only when one is shown.
const RunningPanel = dynamic(() => import("./stage-panels").then((m) => m.RunningPanel));
const FailedPanel = dynamic(() => import("./stage-panels").then((m) => m.FailedPanel));

/** What to do first, by kind, said in the empty viewer. */
const FIRST_STEP: Record<StudioTaskKind, string> = {
  "image-to-3d": "Add a photo, pick the options and press Create 3D model.",
  texture: "Pick a GLB model and the image to paint it with, then press Texture the model.",
  split: "Pick a model and how to cut it, then press Split the model.",
  depth: "Add an image, set the relief and press Make the depth map.",
  segmentation: "Pick a model and press Segment the model.",
};

/** The bar over the viewer: what is shown, its state, and where to take it. */
function StageHeader({ task }: { task: TaskView }) {
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
