/** Round lengths for the viewer's grid and scale bar, in millimetres. */

/** The round length (1, 2 or 5 × 10^k mm) nearest above `mm`. */
export function niceLength(mm: number): number {
  if (!(mm > 0) || !Number.isFinite(mm)) return 1;
  const power = 10 ** Math.floor(Math.log10(mm));
  for (const step of [1, 2, 5, 10]) if (step * power >= mm * (1 - 1e-9)) return step * power;
  return 10 * power;
}

/** A grid square's side for a model whose longest side is `extentMm`: about a tenth of it, rounded. */
export function gridStep(extentMm: number): number {
  return niceLength(extentMm / 10);
}

/** The scale bar: a round length in mm at least `minPx` pixels long at `pxPerMm`, and its length in pixels. */
export function scaleBar(pxPerMm: number, minPx = 60): { mm: number; px: number } {
  const mm = niceLength(minPx / pxPerMm);
  return { mm, px: mm * pxPerMm };
}

/** "42.3 mm", or "1.25 m" from a metre on. */
export function formatLength(mm: number): string {
  return mm >= 1000 ? `${(mm / 1000).toFixed(2)} m` : `${(Math.round(mm * 10) / 10).toFixed(1)} mm`;
}
