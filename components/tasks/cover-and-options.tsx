import type { StudioTaskKind } from "@/lib/tasks/model/task-types";
import { TaskOptions } from "./task-options";

/** The options the result was made with, under its cover (a side panel of the task and share pages). */
export function CoverAndOptions({
  coverUrl,
  kind,
  options,
}: {
  coverUrl: string | null | undefined;
  kind: StudioTaskKind;
  options: Record<string, unknown>;
}) {
  return (
    <div className="space-y-5">
      <section className="space-y-2" aria-label="Options">
        <h2 className="text-caption font-medium text-muted-foreground">Options</h2>
        <TaskOptions kind={kind} options={options} />
      </section>
      {coverUrl ? (
        <section className="space-y-2" aria-label="Cover">
          <h2 className="text-caption font-medium text-muted-foreground">Cover</h2>
          {/* eslint-disable-next-line @next/next/no-img-element -- a file served by the studio's own routes, not an optimizable asset */}
          <img
            src={coverUrl}
            alt="Cover of the result"
            className="w-full max-w-64 rounded-lg border border-border"
            data-testid="task-cover"
          />
        </section>
      ) : null}
    </div>
  );
}
