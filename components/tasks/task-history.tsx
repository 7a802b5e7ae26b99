import Link from "next/link";
import type { StudioTaskKind, TaskState } from "@/lib/tasks/task-types";
import { DeleteTaskButton } from "./delete-task-button";
import { LocalTime } from "./local-time";
import { LiveStateBadge, StateLabel } from "./state-badge";
import { KIND_FORMS, KIND_LABELS } from "./task-labels";

/** The id of the form the rows' compare boxes belong to (the tasks page renders it). */
export const COMPARE_FORM_ID = "compare-pick";

export interface HistoryRow {
  id: string;
  kind: StudioTaskKind;
  state: TaskState;
  /** Not settled yet (unfinished, or done with the result not stored): its state is polled. */
  live: boolean;
  createdAt: string;
  coverUrl: string | null;
}

/**
 * The user's tasks as a list: a box to pick finished ones to compare, cover, kind, state, date,
 * "run again" and "delete" (which comes back to `here`, this page of the history).
 */
export function TaskHistory({ rows, here }: { rows: HistoryRow[]; here: string }) {
  return (
    <ul className="divide-y divide-border rounded-lg border border-border" data-testid="task-history">
      {rows.map((row) => (
        <li key={row.id} className="flex items-center gap-4 p-3" data-testid="task-row">
          {row.state === "success" ? (
            <input type="checkbox" form={COMPARE_FORM_ID} name="t" value={row.id} aria-label="Select to compare" className="shrink-0" />
          ) : (
            <span className="w-[13px] shrink-0" />
          )}
          {/* The same link as the kind's name beside it: one stop for the keyboard and one name for a screen reader. */}
          <Link href={`/tasks/${row.id}`} className="shrink-0" tabIndex={-1} aria-hidden>
            {row.coverUrl ? (
              // eslint-disable-next-line @next/next/no-img-element -- a private file behind a session
              <img src={row.coverUrl} alt="" loading="lazy" className="size-16 rounded-md border border-border object-cover" />
            ) : (
              <span className="block size-16 rounded-md border border-border bg-card" />
            )}
          </Link>
          <div className="min-w-0 flex-1">
            <Link href={`/tasks/${row.id}`} className="font-medium hover:text-primary">
              {KIND_LABELS[row.kind]}
            </Link>
            <div className="mt-1 flex flex-wrap items-center gap-3 text-sm text-muted-foreground">
              {row.live ? <LiveStateBadge id={row.id} initial={row.state} /> : <StateLabel state={row.state} />}
              <LocalTime iso={row.createdAt} />
            </div>
          </div>
          <Link
            href={`${KIND_FORMS[row.kind]}?again=${encodeURIComponent(row.id)}`}
            className="rounded-md border border-border px-3 py-1.5 text-sm hover:border-primary"
          >
            Run again
          </Link>
          <DeleteTaskButton
            taskId={row.id}
            history={here}
            label={`Delete the ${KIND_LABELS[row.kind]} task of ${row.createdAt.slice(0, 16).replace("T", " ")} UTC`}
          />
        </li>
      ))}
    </ul>
  );
}
