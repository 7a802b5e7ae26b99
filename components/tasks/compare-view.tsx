"use client";

import Link from "@/components/ui/link";
import { useCallback, useState } from "react";
import { LazyCompareViewer, type ModelFacts } from "@/components/viewer";
import type { CompareSide } from "@/lib/tasks/read/compare";
import { formatBytes } from "@/lib/files/format-bytes";
import { LocalTime } from "./local-time";
import { describeOptions } from "./option-labels";
import { KIND_LABELS } from "./task-labels";

interface Props {
  a: CompareSide;
  b: CompareSide;
  /** Option keys whose values differ. */
  differing: string[];
  /** The two viewers' size (the compare page's default: 28rem high). */
  viewerClassName?: string;
}

const count = (n: number | undefined) => (n === undefined ? "…" : n.toLocaleString("en-US"));

/** One option's label and value as the task page shows it ("—" when the task has none). */
function optionCell(side: CompareSide, key: string): [string, string] {
  return describeOptions(side.kind, { [key]: side.options[key] })[0] ?? [key.replaceAll("_", " "), "—"];
}

/** Two results in linked viewers (side by side or swipe) above their stats and the options that differ. */
export function CompareView({ a, b, differing, viewerClassName }: Props) {
  const [facts, setFacts] = useState<[ModelFacts | undefined, ModelFacts | undefined]>([undefined, undefined]);
  const onFacts = useCallback((index: 0 | 1, f: ModelFacts) => setFacts((old) => (index === 0 ? [f, old[1]] : [old[0], f])), []);
  const [factsA, factsB] = facts;
  const rows: [string, string, string][] = [
    ["Triangles", count(factsA?.triangles), count(factsB?.triangles)],
    ["Vertices", count(factsA?.vertices), count(factsB?.vertices)],
    // Measured on what the viewer loaded: the display copy holds textures of at most 2048 pixels a side.
    ["Textures (as shown)", factsA ? factsA.textures.join(", ") || "none" : "…", factsB ? factsB.textures.join(", ") || "none" : "…"],
    [
      "File size",
      a.fileSize === null ? "—" : `${formatBytes(a.fileSize)} ${a.format.toUpperCase()}`,
      b.fileSize === null ? "—" : `${formatBytes(b.fileSize)} ${b.format.toUpperCase()}`,
    ],
  ];
  const options = differing.map((key): [string, string, string] => {
    const [label, valueA] = optionCell(a, key);
    return [label, valueA, optionCell(b, key)[1]];
  });

  return (
    <div className="space-y-8 pb-10">
      {/* The full width, and the height of the screen under the header, the title row and the mode buttons. */}
      <div className="px-3 pt-3 sm:px-4">
        <LazyCompareViewer
          models={[
            { url: a.viewUrl, format: a.viewFormat, label: "A" },
            { url: b.viewUrl, format: b.viewFormat, label: "B" },
          ]}
          onFacts={onFacts}
          className={viewerClassName ?? "h-[calc(100dvh-var(--spacing-header)-8.5rem)] min-h-80 w-full"}
        />
      </div>
      <div className="mx-auto w-full max-w-6xl space-y-8 px-4 sm:px-6">
        <table className="w-full text-left text-sm" data-testid="compare-stats">
          <thead className="text-muted-foreground">
            <tr>
              <th className="py-1 pr-4 font-normal" />
              {[a, b].map((side, i) => (
                <th key={side.id} className="py-1 pr-4 font-medium text-foreground" scope="col">
                  {i === 0 ? "A" : "B"} ·{" "}
                  <Link href={`/tasks/${encodeURIComponent(side.id)}`} className="hover:text-primary">
                    {KIND_LABELS[side.kind]}
                  </Link>{" "}
                  <span className="font-normal text-muted-foreground">
                    <LocalTime iso={side.createdAt} />
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(([label, valueA, valueB]) => (
              <PairRow key={label} testId="compare-row" label={label} a={valueA} b={valueB} />
            ))}
          </tbody>
        </table>
        <section className="space-y-2" aria-label="Options that differ">
          <h2 className="text-sm font-medium text-foreground/85">Options that differ</h2>
          {options.length === 0 ? (
            <p className="text-sm text-muted-foreground">Both were made with the same options.</p>
          ) : (
            <table className="w-full text-left text-sm" data-testid="compare-options">
              <tbody>
                {options.map(([label, valueA, valueB]) => (
                  <PairRow key={label} testId="compare-option" label={label} a={valueA} b={valueB} />
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
    </div>
  );
}

/** One row of the side-by-side tables: a label and the two tasks' values. */
function PairRow({ testId, label, a, b }: { testId: string; label: string; a: React.ReactNode; b: React.ReactNode }) {
  return (
    <tr data-testid={testId} data-row={label} className="border-t border-border">
      <th scope="row" className="py-1 pr-4 font-normal text-muted-foreground">
        {label}
      </th>
      <td className="py-1 pr-4">{a}</td>
      <td className="py-1 pr-4">{b}</td>
    </tr>
  );
}
