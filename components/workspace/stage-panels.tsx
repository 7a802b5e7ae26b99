"use client";

import { Loader2, TriangleAlert } from "lucide-react";
import { StateTimeline } from "@/components/tasks/state-timeline";
import { FAILED_WITHOUT_REASON, refundSentence, STATE_LABELS } from "@/components/tasks/task-labels";
import type { TaskView } from "@/lib/tasks/model/task-view";
import { STAGE_HEIGHT } from "./stage-classes";

/** A task on its way, big where its result will be: its state, the time so far and its steps. */
export function RunningPanel({ task }: { task: TaskView }) {
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
export function FailedPanel({ task }: { task: TaskView }) {
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
