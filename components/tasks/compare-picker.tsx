import Link from "@/components/ui/link";
import type { StudioTaskKind } from "@/lib/tasks/model/task-types";
import { LocalTime } from "./local-time";
import { KIND_LABELS } from "./task-labels";

interface Choice {
  id: string;
  kind: StudioTaskKind;
  createdAt: string;
  coverUrl: string | null;
}

const compareHref = (a: string, b: string) => `/compare?t=${encodeURIComponent(a)}&t=${encodeURIComponent(b)}`;

/** The user's finished tasks to compare with `first` (links), or to tick two of (a plain GET form). */
export function ComparePicker({ first, choices }: { first: string | null; choices: Choice[] }) {
  if (choices.length === 0) return <p className="text-muted-foreground">No other finished task to compare with yet.</p>;
  const rows = choices.map((c) => (
    <li key={c.id} className="flex items-center gap-4 p-3" data-testid="compare-choice">
      {first ? null : <input type="checkbox" name="t" value={c.id} aria-label={`Compare ${KIND_LABELS[c.kind]} ${c.createdAt}`} />}
      {c.coverUrl ? (
        // eslint-disable-next-line @next/next/no-img-element -- a private file behind a session
        <img src={c.coverUrl} alt="" loading="lazy" className="size-12 rounded-md border border-border object-cover" />
      ) : (
        <span className="block size-12 rounded-md border border-border bg-card" />
      )}
      <span className="flex-1">
        {first ? (
          <Link href={compareHref(first, c.id)} className="font-medium hover:text-primary">
            {KIND_LABELS[c.kind]}
          </Link>
        ) : (
          <span className="font-medium">{KIND_LABELS[c.kind]}</span>
        )}{" "}
        <span className="text-sm text-muted-foreground">
          <LocalTime iso={c.createdAt} />
        </span>
      </span>
    </li>
  ));
  const list = <ul className="divide-y divide-border rounded-lg border border-border">{rows}</ul>;
  if (first) return list;
  return (
    <form action="/compare" method="get" className="space-y-4">
      <p className="text-sm text-muted-foreground">Tick two results.</p>
      {list}
      <button type="submit" className="rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground hover:bg-primary/90">
        Compare
      </button>
    </form>
  );
}
