/**
 * The size a model is measured and printed at. A relief is built in millimetres with its
 * `width` option as its X extent (lib/engine/generate/depth.ts), so its scale comes from that
 * stored option; any other result has no units, and the user picks its height in mm
 * (DEFAULT_HEIGHT_MM until they do), which scales the rest.
 */
import type { MeshAnalysis } from "./mesh-analysis";
import type { PrintSizing } from "./task-sizing";

/** A unitless model's height until the user chooses one: a figurine's size, printable on any printer. */
export const DEFAULT_HEIGHT_MM = 100;

/** Model units to millimetres: the relief's width over its X extent, or the chosen height over the Y extent. */
export function mmPerUnit(sizing: PrintSizing, size: readonly [number, number, number], heightMm: number): number {
  const extent = sizing.kind === "relief" ? size[0] : size[1];
  const target = sizing.kind === "relief" ? sizing.widthMm : heightMm;
  return extent > 0 && target > 0 ? target / extent : 1;
}

const mm = (x: number) => (Math.round(x * 10) / 10).toFixed(1);

/** "120.0 × 80.0 × 2.3 mm": width (X) × depth (Z) × height (Y, up in the viewer). */
export function formatDimensions(size: readonly [number, number, number], scale: number): string {
  return `${mm(size[0] * scale)} × ${mm(size[2] * scale)} × ${mm(size[1] * scale)} mm`;
}

export interface PrintReport {
  watertight: boolean;
  boundaryEdges: number;
  nonManifoldEdges: number;
  shells: number;
  /** cm³ at the chosen size; only meaningful when watertight. */
  volumeCm3: number;
  areaCm2: number;
}

/** The analysis (model units) at `scale` mm per unit. */
export function printReport(a: MeshAnalysis, scale: number): PrintReport {
  return {
    watertight: a.boundaryEdges === 0 && a.nonManifoldEdges === 0 && a.triangles > 0,
    boundaryEdges: a.boundaryEdges,
    nonManifoldEdges: a.nonManifoldEdges,
    shells: a.shells,
    volumeCm3: (Math.abs(a.volume) * scale ** 3) / 1000,
    areaCm2: (a.area * scale ** 2) / 100,
  };
}

const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1, minimumFractionDigits: 1 });

/** A figure with one decimal and thousands separators: "1,000.0". */
export const formatFigure = (x: number) => grouped.format(x);
