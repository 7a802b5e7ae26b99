import { CircleAlert, RotateCcw } from "lucide-react";
import Link from "@/components/ui/link";
import { Button } from "@/components/ui/button";
import type { TaskView } from "@/lib/tasks/model/task-view";
import { FAILED_WITHOUT_REASON, KIND_FORMS, refundSentence } from "./task-labels";

/** A failed task in the viewer's place: why, that its credits came back, and the way to try again. */
export function TaskFailure({ task }: { task: TaskView }) {
  return (
    <section
      role="alert"
      data-testid="task-failure"
      className="flex size-full flex-col items-center justify-center gap-3 overflow-y-auto p-6 text-center"
    >
      <CircleAlert className="size-12 text-destructive" aria-hidden />
      <h2 className="text-display font-semibold tracking-tight">This task failed</h2>
      <p className="max-w-md text-body">{task.errorMessage ?? FAILED_WITHOUT_REASON}</p>
      {task.refunded ? (
        <p className="max-w-md text-body text-muted-foreground" data-testid="refund">
          {refundSentence(task.cost)}
        </p>
      ) : null}
      <Button asChild variant="outline" className="mt-2">
        <Link href={`${KIND_FORMS[task.kind]}?again=${encodeURIComponent(task.id)}`}>
          <RotateCcw aria-hidden />
          Run again
        </Link>
      </Button>
    </section>
  );
}
