/**
 * How many of the viewer's tools fit in one row. A tool is a 36 px square (size-9) with 2 px
 * between tools, in a pill of 4 px padding and a 1 px border (components/viewer/viewer-toolbar.tsx).
 */
const TOOL_PX = 36;
const GAP_PX = 2;
const PILL_PX = 2 * 4 + 2 * 1;

/** The width in px of a toolbar pill holding `n` tools. */
export function pillWidth(n: number): number {
  return n <= 0 ? PILL_PX : n * TOOL_PX + (n - 1) * GAP_PX + PILL_PX;
}

/** How many of `count` tools fit in `width` px in one row, keeping a slot for the "More" menu when not all do. */
export function toolsThatFit(width: number, count: number): number {
  if (pillWidth(count) <= width) return count;
  let n = count - 1;
  while (n > 0 && pillWidth(n + 1) > width) n--;
  return n;
}
