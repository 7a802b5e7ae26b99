import Link from "@/components/ui/link";
import { KindIcon } from "@/components/tasks/kind-icon";
import { KIND_FORMS, KIND_LABELS, KIND_SUMMARIES } from "@/components/tasks/task-labels";
import { TASK_KINDS } from "@/lib/tasks/model/task-types";

/** One compact way in per kind of task: its icon, its name and what it makes, to its workspace. */
export function StartLinks() {
  return (
    <ul className="grid grid-cols-2 gap-2 lg:grid-cols-1" aria-label="Start a task">
      {TASK_KINDS.map((kind) => (
        <li key={kind}>
          <Link
            href={KIND_FORMS[kind]}
            className="flex h-full min-h-12 items-center gap-3 rounded-lg border bg-card p-2.5 transition-colors outline-none hover:border-primary hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring"
          >
            <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
              <KindIcon kind={kind} className="size-5" />
            </span>
            <span className="min-w-0">
              <span className="block text-body font-medium">{KIND_LABELS[kind]}</span>
              <span className="hidden text-caption text-muted-foreground sm:block">{KIND_SUMMARIES[kind]}</span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
