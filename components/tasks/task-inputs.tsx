import Link from "@/components/ui/link";
import type { TaskInputView } from "@/lib/tasks/model/recorded-inputs";

/** What the task was made from, beside its result: each image with its view, the mesh with its cover and name. */
export function TaskInputs({ inputs }: { inputs: readonly TaskInputView[] }) {
  if (inputs.length === 0) return null;
  return (
    <section aria-label="Inputs" data-testid="task-inputs">
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-2">
        {inputs.map((input, i) => (
          <li key={i} data-testid="task-input" data-role={input.role}>
            <figure className="space-y-1.5">
              {input.imageUrl ? (
                // eslint-disable-next-line @next/next/no-img-element -- a file served by the studio's own routes, not an optimizable asset
                <img
                  src={input.imageUrl}
                  alt={`Input: ${input.label}`}
                  className="aspect-square w-full rounded-lg border border-border bg-card object-contain"
                />
              ) : (
                <div className="flex aspect-square w-full items-center justify-center rounded-lg border border-dashed border-border p-2 text-center text-caption text-muted-foreground">
                  {input.role === "mesh" ? "no picture" : "no longer stored"}
                </div>
              )}
              <figcaption className="text-caption">
                <span data-testid="input-label" className="font-medium text-foreground">
                  {input.label}
                </span>
                {input.name ? (
                  <span className="block truncate text-muted-foreground" title={input.name} data-testid="input-name">
                    {input.taskId ? (
                      <Link href={`/tasks/${encodeURIComponent(input.taskId)}`} className="underline-offset-2 hover:underline">
                        {input.name}
                      </Link>
                    ) : (
                      input.name
                    )}
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
