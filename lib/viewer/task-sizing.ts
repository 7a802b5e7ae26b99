/**
 * How a task's result is measured: a relief is built in millimetres with its `width` option as
 * its X extent (lib/engine/generate/depth.ts); any other result has no units and is sized by a
 * height the artist picks. Apart from print-size.ts (the print panel's figures) so the pages
 * that show a result load only this.
 */

export type PrintSizing = { kind: "relief"; widthMm: number } | { kind: "height" };

/** How a task's result is sized: reliefs by their stored width in mm, everything else by a chosen height. */
export function printSizing(kind: string, options: Record<string, unknown>): PrintSizing {
  const width = Number(options.width);
  return kind === "depth" && Number.isFinite(width) && width > 0 ? { kind: "relief", widthMm: width } : { kind: "height" };
}
