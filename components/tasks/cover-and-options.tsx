import type { StudioTaskKind } from "@/lib/tasks/task-types";
import { TaskOptions } from "./task-options";

/** The result's cover beside the options it was made with (task page and share page). */
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
    <div className={coverUrl ? "grid gap-8 md:grid-cols-[16rem_1fr]" : ""}>
      {coverUrl ? (
        // eslint-disable-next-line @next/next/no-img-element -- a file served by the studio's own routes, not an optimizable asset
        <img src={coverUrl} alt="Cover of the result" className="w-64 rounded-lg border border-border" data-testid="task-cover" />
      ) : null}
      <section className="space-y-2" aria-label="Options">
        <h2 className="text-sm font-medium text-foreground/85">Options</h2>
        <TaskOptions kind={kind} options={options} />
      </section>
    </div>
  );
}
