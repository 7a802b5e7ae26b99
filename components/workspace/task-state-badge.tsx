import { Loader2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { STATE_LABELS, isFinished } from "@/components/tasks/task-labels";
import type { TaskState } from "@/lib/tasks/task-types";

const TONES = {
  checking: "warning",
  created: "neutral",
  queueing: "neutral",
  processing: "info",
  success: "success",
  failed: "danger",
} as const satisfies Record<TaskState, string>;

/** A task's state as a badge, turning while the task runs. */
export function TaskStateBadge({ state, className, ...props }: { state: TaskState } & React.ComponentProps<typeof Badge>) {
  return (
    <Badge tone={TONES[state]} className={className} {...props}>
      {isFinished(state) ? null : <Loader2 className="animate-spin motion-reduce:animate-none" aria-hidden />}
      {STATE_LABELS[state]}
    </Badge>
  );
}
