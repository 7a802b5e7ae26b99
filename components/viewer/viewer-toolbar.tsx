"use client";

import { isMaterialView, MATERIAL_VIEWS, type MaterialView } from "@/lib/viewer/material-views";
import { checkerStyle } from "./checker";
import { BACKDROP_COLORS, type Backdrop } from "./model-scene";

interface ViewerToolbarProps {
  wireframe: boolean;
  clay: boolean;
  backdrop: Backdrop;
  canScreenshot: boolean;
  materialView: MaterialView;
  onMaterialView(view: MaterialView): void;
  autoRotate: boolean;
  onAutoRotate(): void;
  /** Seconds left of a turntable being recorded, or null. */
  recording: number | null;
  onRecord(): void;
  onWireframe(): void;
  onClay(): void;
  onBackdrop(): void;
  onScreenshot(): void;
  grid: boolean;
  measuring: boolean;
  /** The grid and the measuring tool wait for full detail. */
  canMeasure: boolean;
  onGrid(): void;
  onMeasure(): void;
}

const NEXT_BACKDROP: Record<Backdrop, Backdrop> = { dark: "light", light: "transparent", transparent: "dark" };

const button =
  "rounded border border-border bg-card/80 px-2.5 py-1 text-xs text-foreground backdrop-blur " +
  "hover:border-input disabled:opacity-40 aria-pressed:border-primary aria-pressed:text-primary " +
  "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring";

/** The cycle order of the background button. */
export function nextBackdrop(b: Backdrop): Backdrop {
  return NEXT_BACKDROP[b];
}

export function ViewerToolbar(p: ViewerToolbarProps) {
  return (
    <div role="toolbar" aria-label="Viewer" className="flex flex-wrap gap-1.5">
      <button type="button" className={button} aria-pressed={p.wireframe} onClick={p.onWireframe}>
        Wireframe
      </button>
      <button type="button" className={button} aria-pressed={p.clay} onClick={p.onClay}>
        Clay
      </button>
      <button
        type="button"
        className={button}
        onClick={p.onBackdrop}
        title={`Background: ${p.backdrop} (next: ${NEXT_BACKDROP[p.backdrop]})`}
        data-backdrop={p.backdrop}
      >
        Background
        <span
          aria-hidden
          className="ml-1.5 inline-block size-2.5 rounded-sm border border-input align-middle"
          style={p.backdrop === "transparent" ? checkerStyle(2.5) : { backgroundColor: BACKDROP_COLORS[p.backdrop] }}
        />
      </button>
      <button type="button" className={button} aria-pressed={p.grid} onClick={p.onGrid} disabled={!p.canMeasure}>
        Grid
      </button>
      <button type="button" className={button} aria-pressed={p.measuring} onClick={p.onMeasure} disabled={!p.canMeasure}>
        Measure
      </button>
      <select
        aria-label="Maps"
        title="Show one map on its own, or a UV checker"
        className={button}
        value={p.materialView}
        onChange={(e) => {
          if (isMaterialView(e.target.value)) p.onMaterialView(e.target.value);
        }}
      >
        {MATERIAL_VIEWS.map((v) => (
          <option key={v.value} value={v.value}>
            {v.label}
          </option>
        ))}
      </select>
      <button type="button" className={button} onClick={p.onScreenshot} disabled={!p.canScreenshot}>
        Screenshot
      </button>
      <button type="button" className={button} aria-pressed={p.autoRotate} onClick={p.onAutoRotate} disabled={p.recording !== null}>
        Auto-rotate
      </button>
      <button type="button" className={button} onClick={p.onRecord} disabled={!p.canScreenshot || p.recording !== null}>
        {p.recording === null ? "Record turntable" : `Recording… ${p.recording} s`}
      </button>
    </div>
  );
}
