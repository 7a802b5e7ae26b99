import type { StudioTaskKind } from "@/lib/tasks/model/task-types";
import { describeOptions } from "./option-labels";

/** The options a task was made with, read-only. */
export function TaskOptions({ kind, options }: { kind: StudioTaskKind; options: Record<string, unknown> }) {
  const rows = describeOptions(kind, options);
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">Default options.</p>;
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm" data-testid="task-options">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="[overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
