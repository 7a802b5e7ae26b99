"use client";

import { Download, Loader2 } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import { analyseInWorker } from "@/lib/viewer/analyse-in-worker";
import type { MeshAnalysis } from "@/lib/viewer/mesh-analysis";
import type { ExtractedModel } from "@/lib/viewer/mesh-extract";
import { printParts } from "@/lib/viewer/mesh-extract";
import { exportInWorker } from "@/lib/viewer/export-in-worker";
import { countThinner, MIN_WALL_MM } from "@/lib/viewer/wall-figures";
import { DEFAULT_HEIGHT_MM, formatDimensions, formatFigure, printReport } from "@/lib/viewer/print-size";
import type { PrintSizing } from "@/lib/viewer/task-sizing";

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
  /** A bordered card of its own (under a viewer) rather than a side panel's content. */
  framed?: boolean;
}

type Analysis = { key: ExtractedModel; result: MeshAnalysis | { error: string } };
type Thickness = { key: ExtractedModel; thickness: Float32Array; searched: number };

/** Size in mm, the chosen height of a unitless model, printability figures and the print downloads. */
export function PrintPanel({ model, sizing, scale, heightMm, onHeightMm, name, framed = false }: PrintPanelProps) {
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
    <section aria-label="Size and printability" className={cn("space-y-5 text-body", framed && "rounded-lg border border-border p-4")}>
      <div className="space-y-1">
        <h2 className="text-caption font-medium text-muted-foreground">Size (width × depth × height)</h2>
        <p className="text-title font-semibold tabular-nums" data-testid="dimensions">
          {size ? formatDimensions([size[0] ?? 0, size[1] ?? 0, size[2] ?? 0], scale) : "measuring…"}
        </p>
      </div>
      {sizing.kind === "height" ? (
        <div className="space-y-1.5">
          <label className="flex items-center justify-between gap-3">
            <span className="font-medium">Height (mm)</span>
            <Input
              type="number"
              min={1}
              max={5000}
              step={1}
              defaultValue={heightMm}
              onChange={(e) => {
                const mm = Number(e.target.value);
                if (Number.isFinite(mm) && mm > 0) onHeightMm(mm);
              }}
              className="w-28 text-right tabular-nums"
            />
          </label>
          <p className="text-caption text-muted-foreground">
            The model has no units: it is measured at this height ({DEFAULT_HEIGHT_MM} mm until you choose), kept in this browser.
          </p>
        </div>
      ) : (
        <p className="text-caption text-muted-foreground">
          A relief is built in millimetres: {sizing.widthMm} mm wide, as its options say.
        </p>
      )}
      <div data-testid="printability" data-state={result ? ("error" in result ? "error" : "ready") : "checking"} className="space-y-2">
        <h2 className="text-caption font-medium text-muted-foreground">Printability</h2>
        {!result ? (
          <p role="status" className="flex items-center gap-2 text-muted-foreground">
            <Loader2 className="size-4 animate-spin" aria-hidden />
            Checking printability…
          </p>
        ) : "error" in result ? (
          <p className="text-warning">Printability could not be checked: {result.error}</p>
        ) : (
          <Figures analysis={result} scale={scale} walls={thickness} />
        )}
      </div>
      <div className="space-y-2">
        <h2 className="text-caption font-medium text-muted-foreground">Files for printing (millimetres)</h2>
        <div className="grid grid-cols-2 gap-2">
          {(["stl", "3mf"] as const).map((format) => {
            const upper = format.toUpperCase();
            const writing = exporting === format;
            return (
              <Button
                key={format}
                variant="outline"
                disabled={!model || exporting !== null}
                onClick={() => void download(format)}
                aria-label={writing ? `Writing ${upper}…` : `Download ${upper} for printing`}
              >
                {writing ? <Loader2 className="animate-spin" aria-hidden /> : <Download aria-hidden />}
                {writing ? `Writing ${upper}…` : upper}
              </Button>
            );
          })}
        </div>
        {exportError ? <p className="text-warning">The file could not be written: {exportError}</p> : null}
      </div>
    </section>
  );
}

function Figures({ analysis, scale, walls }: { analysis: MeshAnalysis; scale: number; walls: Thickness | null }) {
  const r = printReport(analysis, scale);
  const limit = MIN_WALL_MM / scale;
  const thin = useMemo(() => (walls ? countThinner(walls.thickness, limit) : null), [walls, limit]);
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 [&_dd]:tabular-nums">
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
