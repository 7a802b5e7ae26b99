"use client";

import { partColour } from "@/lib/viewer/parts";
import type { PartView } from "./model-scene";

interface PartListProps {
  names: readonly string[];
  view: PartView;
  onChange(view: PartView): void;
}

const button =
  "rounded border border-border bg-card/80 px-2 py-0.5 text-xs text-foreground hover:border-input " +
  "focus-visible:outline-2 focus-visible:outline-ring aria-pressed:border-primary aria-pressed:text-primary";

/** The parts of a split or segmented result: show or hide each, isolate one, colour by part, explode. */
export function PartList({ names, view, onChange }: PartListProps) {
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
      className="max-h-[min(22rem,calc(100%-4rem))] w-52 overflow-y-auto rounded border border-border bg-card/85 p-2 text-xs text-foreground backdrop-blur"
    >
      <div className="mb-1.5 flex items-center justify-between">
        <h3 className="font-medium" data-testid="part-count">
          {names.length} parts{shown < names.length ? ` · ${shown} shown` : ""}
        </h3>
        <button type="button" className={button} onClick={() => set({ hidden: new Set() })} disabled={shown === names.length}>
          Show all
        </button>
      </div>
      <ul className="space-y-1">
        {names.map((name, i) => (
          <li key={name} data-testid="part" className="flex items-center gap-1.5">
            <label className="flex min-w-0 flex-1 items-center gap-1.5">
              <input
                type="checkbox"
                checked={!view.hidden.has(name)}
                onChange={(e) => toggle(name, e.target.checked)}
                className="focus-visible:outline-2 focus-visible:outline-ring"
              />
              <span aria-hidden className="inline-block size-2.5 shrink-0 rounded-sm" style={{ backgroundColor: partColour(i) }} />
              <span className="truncate" data-testid="part-name">
                {name}
              </span>
            </label>
            <button
              type="button"
              className={button}
              aria-label={`Isolate ${name}`}
              onClick={() => set({ hidden: new Set(names.filter((n) => n !== name)) })}
            >
              Isolate
            </button>
          </li>
        ))}
      </ul>
      <label className="mt-2 flex items-center gap-1.5">
        <input
          type="checkbox"
          checked={view.colours}
          onChange={(e) => set({ colours: e.target.checked })}
          className="focus-visible:outline-2 focus-visible:outline-ring"
        />
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
          className="w-full focus-visible:outline-2 focus-visible:outline-ring"
        />
      </label>
    </section>
  );
}
