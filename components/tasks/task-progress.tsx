"use client";

import { Loader2 } from "lucide-react";
import type { TaskView } from "@/lib/tasks/model/task-view";
import { StateTimeline } from "./state-timeline";
import { STATE_LABELS } from "./task-labels";

/** What the task is doing now, in a sentence. */
function doing(task: TaskView): string {
  switch (task.state) {
    case "checking":
      return "Confirming the task with the service…";
    case "created":
    case "queueing":
      return "Waiting for its turn on the service…";
    case "processing":
      return "The service is making it. It appears here when it is done; you can leave this page meanwhile.";
    default:
      return "Saving the result…";
  }
}

/** A running task in the viewer's place: its state in large, what it is doing, and its steps with their times. */
export function TaskProgress({ task }: { task: TaskView }) {
  const title = task.state === "success" ? "Almost done" : STATE_LABELS[task.state];
  return (
    <div data-testid="task-progress" className="flex size-full flex-col items-center justify-center gap-6 overflow-y-auto p-6 text-center">
      <Loader2 className="size-12 animate-spin text-primary" aria-hidden />
      <div className="space-y-2" role="status">
        <p className="text-display font-semibold tracking-tight">{title}</p>
        <p className="mx-auto max-w-md text-body text-muted-foreground">{doing(task)}</p>
      </div>
      <div className="w-full max-w-2xl text-left">
        <StateTimeline state={task.state} stateTimes={task.stateTimes} createdAt={task.createdAt} />
      </div>
    </div>
  );
}
