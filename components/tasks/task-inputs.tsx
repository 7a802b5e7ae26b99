import Link from "next/link";
import type { TaskInputView } from "@/lib/tasks/input-entries";

/** What the task was made from, beside its result: each image with its view, the mesh with its cover and name. */
export function TaskInputs({ inputs }: { inputs: readonly TaskInputView[] }) {
  if (inputs.length === 0) return null;
  return (
    <section className="space-y-2" aria-label="Inputs" data-testid="task-inputs">
      <h2 className="text-sm font-medium text-foreground/85">Made from</h2>
      <ul className="flex flex-wrap gap-4">
        {inputs.map((input, i) => (
          <li key={i} data-testid="task-input" data-role={input.role}>
            <figure className="w-32 space-y-1">
              {input.imageUrl ? (
                // eslint-disable-next-line @next/next/no-img-element -- a file served by the studio's own routes, not an optimizable asset
                <img
                  src={input.imageUrl}
                  alt={`Input: ${input.label}`}
                  className="h-32 w-32 rounded-lg border border-border bg-card object-contain"
                />
              ) : (
                <div className="flex h-32 w-32 items-center justify-center rounded-lg border border-dashed border-border p-2 text-center text-xs text-muted-foreground">
                  {input.role === "mesh" ? "no picture" : "no longer stored"}
                </div>
              )}
              <figcaption className="text-xs">
                <span data-testid="input-label" className="font-medium text-foreground">
                  {input.label}
                </span>
                {input.name ? (
                  <span className="block truncate text-muted-foreground" title={input.name} data-testid="input-name">
                    {input.taskId ? <Link href={`/tasks/${encodeURIComponent(input.taskId)}`}>{input.name}</Link> : input.name}
                  </span>
                ) : null}
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
