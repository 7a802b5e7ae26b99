"use client";

import { cn } from "@/components/ui/cn";
import { partColour } from "@/lib/viewer/parts";
import type { PartView } from "./model-scene";

interface PartListProps {
  names: readonly string[];
  view: PartView;
  onChange(view: PartView): void;
  /** Lying over the viewer (compact), or in a page's side panel. */
  variant?: "overlay" | "panel";
}

const button =
  "rounded-md border border-border bg-card/80 px-2 text-foreground hover:border-input disabled:opacity-50 " +
  "focus-visible:outline-2 focus-visible:outline-ring aria-pressed:border-primary aria-pressed:text-primary";
const check = "size-4 accent-primary focus-visible:outline-2 focus-visible:outline-ring";

/** The parts of a split or segmented result: show or hide each, isolate one, colour by part, explode. */
export function PartList({ names, view, onChange, variant = "overlay" }: PartListProps) {
  const panel = variant === "panel";
  const set = (change: Partial<PartView>) => onChange({ ...view, ...change });
  const toggle = (name: string, shown: boolean) => {
    const hidden = new Set(view.hidden);
    if (shown) hidden.delete(name);
    else hidden.add(name);
    set({ hidden });
  };
  const shown = names.filter((n) => !view.hidden.has(n)).length;
  return (
    <section
      data-testid="part-list"
      aria-label="Parts"
      className={cn(
        "text-foreground",
        panel
          ? "space-y-1 text-body"
          : "max-h-[min(22rem,calc(100%-4rem))] w-52 overflow-y-auto rounded-md border border-border bg-card/85 p-2 text-caption backdrop-blur",
      )}
    >
      <div className="mb-1.5 flex items-center justify-between">
        <h3 className="font-medium" data-testid="part-count">
          {names.length} parts{shown < names.length ? ` · ${shown} shown` : ""}
        </h3>
        <button
          type="button"
          className={cn(button, panel ? "h-8" : "h-6")}
          onClick={() => set({ hidden: new Set() })}
          disabled={shown === names.length}
        >
          Show all
        </button>
      </div>
      <ul className={panel ? "divide-y divide-border rounded-md border border-border" : "space-y-1"}>
        {names.map((name, i) => (
          <li key={name} data-testid="part" className={cn("flex items-center gap-2", panel && "px-2 py-1")}>
            <label className={cn("flex min-w-0 flex-1 items-center gap-2", panel ? "min-h-8" : "min-h-6")}>
              <input type="checkbox" checked={!view.hidden.has(name)} onChange={(e) => toggle(name, e.target.checked)} className={check} />
              <span aria-hidden className="inline-block size-3 shrink-0 rounded-sm" style={{ backgroundColor: partColour(i) }} />
              <span className="truncate" data-testid="part-name">
                {name}
              </span>
            </label>
            <button
              type="button"
              className={cn(button, panel ? "h-8" : "h-6")}
              aria-label={`Isolate ${name}`}
              onClick={() => set({ hidden: new Set(names.filter((n) => n !== name)) })}
            >
              Isolate
            </button>
          </li>
        ))}
      </ul>
      <label className={cn("flex items-center gap-2", panel ? "mt-3 min-h-8" : "mt-2 min-h-6")}>
        <input type="checkbox" checked={view.colours} onChange={(e) => set({ colours: e.target.checked })} className={check} />
        Colour by part
      </label>
      <label className="mt-2 block">
        <span className="flex justify-between">
          Explode <output data-testid="explode-value">{Math.round(view.explode * 100)}%</output>
        </span>
        <input
          type="range"
          aria-label="Explode"
          min={0}
          max={100}
          step={5}
          value={Math.round(view.explode * 100)}
          onChange={(e) => set({ explode: Number(e.target.value) / 100 })}
          className="h-6 w-full accent-primary focus-visible:outline-2 focus-visible:outline-ring"
        />
      </label>
    </section>
  );
}
