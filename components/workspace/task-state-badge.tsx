import { CircleAlert, CircleCheck, CircleX, Clock, Loader2, type LucideIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { STATE_LABELS } from "@/components/tasks/task-labels";
import type { TaskState } from "@/lib/tasks/model/task-types";

/** Each state's mark: the colour is in the icon, the words stay in the text colour (legible on a tint or a cover). */
const MARKS: Record<TaskState, { icon: LucideIcon; className: string }> = {
  checking: { icon: CircleAlert, className: "text-warning" },
  created: { icon: Clock, className: "text-muted-foreground" },
  queueing: { icon: Clock, className: "text-muted-foreground" },
  processing: { icon: Loader2, className: "animate-spin text-info motion-reduce:animate-none" },
  success: { icon: CircleCheck, className: "text-success" },
  failed: { icon: CircleX, className: "text-destructive" },
};

/** A task's state as a badge: its name and a mark of its colour. */
export function TaskStateBadge({ state, className, ...props }: { state: TaskState } & React.ComponentProps<typeof Badge>) {
  const { icon: Icon, className: mark } = MARKS[state];
  return (
    <Badge tone="outline" className={cn("bg-background", className)} {...props}>
      <Icon className={mark} aria-hidden />
      {STATE_LABELS[state]}
    </Badge>
  );
}
