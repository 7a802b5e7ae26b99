"use client";

import { useEffect, useMemo, useState } from "react";
import { analyseInWorker } from "@/lib/viewer/analyse-in-worker";
import type { MeshAnalysis } from "@/lib/viewer/mesh-analysis";
import type { ExtractedModel } from "@/lib/viewer/mesh-extract";
import { printParts } from "@/lib/viewer/mesh-extract";
import { exportInWorker } from "@/lib/viewer/export-in-worker";
import { countThinner, MIN_WALL_MM } from "@/lib/viewer/wall-thickness";
import { DEFAULT_HEIGHT_MM, formatDimensions, formatFigure, printReport, type PrintSizing } from "@/lib/viewer/print-size";

interface PrintPanelProps {
  /** The full-detail model's triangles (never the preview's); null while it loads. */
  model: ExtractedModel | null;
  sizing: PrintSizing;
  /** Millimetres per model unit at the chosen size. */
  scale: number;
  heightMm: number;
  onHeightMm(mm: number): void;
  /** What the downloaded files are named after. */
  name: string;
}

type Analysis = { key: ExtractedModel; result: MeshAnalysis | { error: string } };
type Thickness = { key: ExtractedModel; thickness: Float32Array; searched: number };

const button = "rounded-md border border-border px-3 py-1.5 text-sm text-foreground hover:border-input disabled:opacity-40";

/** Size in mm, the chosen height of a unitless model, printability figures and the print downloads. */
export function PrintPanel({ model, sizing, scale, heightMm, onHeightMm, name }: PrintPanelProps) {
  const [analysis, setAnalysis] = useState<Analysis | null>(null);
  const [walls, setWalls] = useState<Thickness | null>(null);
  useEffect(() => {
    if (!model) return;
    const abort = new AbortController();
    analyseInWorker(model, abort.signal, {
      onAnalysis: (result) => setAnalysis({ key: model, result }),
      onThickness: (thickness, searched) => setWalls({ key: model, thickness, searched }),
      onError: (error) => setAnalysis({ key: model, result: { error } }),
    });
    return () => abort.abort();
  }, [model]);
  const result = analysis?.key === model ? analysis.result : null;
  const thickness = walls?.key === model ? walls : null;
  const size = useMemo(() => (model ? ([0, 1, 2] as const).map((k) => model.max[k] - model.min[k]) : null), [model]);

  const [exporting, setExporting] = useState<"stl" | "3mf" | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const download = async (format: "stl" | "3mf") => {
    if (!model) return;
    setExporting(format);
    setExportError(null);
    let bytes: Uint8Array;
    try {
      bytes = await exportInWorker({ format, parts: printParts(model), scale });
    } catch (e) {
      setExportError(e instanceof Error ? e.message : "the file could not be written");
      return;
    } finally {
      setExporting(null);
    }
    const type = format === "stl" ? "model/stl" : "model/3mf";
    const url = URL.createObjectURL(new Blob([bytes.slice().buffer], { type }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `${name}-${Math.round(size?.[1] ? size[1] * scale : 0)}mm.${format}`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  return (
    <section aria-label="Size and printability" className="space-y-3 rounded-lg border border-border p-4 text-sm">
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <p>
          <span className="text-muted-foreground">Size (width × depth × height): </span>
          <span data-testid="dimensions">{size ? formatDimensions([size[0] ?? 0, size[1] ?? 0, size[2] ?? 0], scale) : "measuring…"}</span>
        </p>
        {sizing.kind === "height" ? (
          <label className="flex items-center gap-2">
            <span className="text-muted-foreground">Height (mm)</span>
            <input
              type="number"
              min={1}
              max={5000}
              step={1}
              defaultValue={heightMm}
              onChange={(e) => {
                const mm = Number(e.target.value);
                if (Number.isFinite(mm) && mm > 0) onHeightMm(mm);
              }}
              className="w-24 rounded border border-border bg-card px-2 py-1"
            />
            <span className="text-xs text-muted-foreground">
              The model has no units: it is measured at this height ({DEFAULT_HEIGHT_MM} mm until you choose), kept in this browser.
            </span>
          </label>
        ) : (
          <span className="text-xs text-muted-foreground">
            A relief is built in millimetres: {sizing.widthMm} mm wide, as its options say.
          </span>
        )}
      </div>
      <div data-testid="printability" data-state={result ? ("error" in result ? "error" : "ready") : "checking"}>
        {!result ? (
          <p role="status" className="text-muted-foreground">
            Checking printability…
          </p>
        ) : "error" in result ? (
          <p className="text-warning">Printability could not be checked: {result.error}</p>
        ) : (
          <Figures analysis={result} scale={scale} walls={thickness} />
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-muted-foreground">Download for printing (mm):</span>
        <button type="button" className={button} disabled={!model || exporting !== null} onClick={() => void download("stl")}>
          {exporting === "stl" ? "Writing STL…" : "STL"}
        </button>
        <button type="button" className={button} disabled={!model || exporting !== null} onClick={() => void download("3mf")}>
          {exporting === "3mf" ? "Writing 3MF…" : "3MF"}
        </button>
        {exportError ? <span className="text-warning">The file could not be written: {exportError}</span> : null}
      </div>
    </section>
  );
}

function Figures({ analysis, scale, walls }: { analysis: MeshAnalysis; scale: number; walls: Thickness | null }) {
  const r = printReport(analysis, scale);
  const limit = MIN_WALL_MM / scale;
  const thin = useMemo(() => (walls ? countThinner(walls.thickness, limit) : null), [walls, limit]);
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
      <dt className="text-muted-foreground">Watertight</dt>
      <dd data-testid="print-watertight">{r.watertight ? "watertight" : `no: ${r.boundaryEdges.toLocaleString("en-US")} open edges`}</dd>
      <dt className="text-muted-foreground">Non-manifold edges</dt>
      <dd data-testid="print-non-manifold">{r.nonManifoldEdges.toLocaleString("en-US")}</dd>
      <dt className="text-muted-foreground">Shells</dt>
      <dd data-testid="print-shells">{r.shells.toLocaleString("en-US")}</dd>
      <dt className="text-muted-foreground">Volume</dt>
      <dd data-testid="print-volume">
        {formatFigure(r.volumeCm3)} cm³{r.watertight ? "" : " (approximate: the surface is not closed)"}
      </dd>
      <dt className="text-muted-foreground">Surface area</dt>
      <dd data-testid="print-area">{formatFigure(r.areaCm2)} cm²</dd>
      <dt className="text-muted-foreground">Walls under {MIN_WALL_MM} mm</dt>
      <dd data-testid="print-thin" data-state={walls ? "ready" : "checking"}>
        {walls && thin !== null
          ? `${thin.toLocaleString("en-US")} of ${analysis.triangles.toLocaleString("en-US")} faces` +
            (limit > walls.searched ? " (at this size walls were only searched up to " + formatFigure(walls.searched * scale) + " mm)" : "")
          : "checking…"}
      </dd>
    </dl>
  );
}
