/**
 * Character landmarks from horizontal cross-sections (manifold-3d slices at many heights;
 * connected 2D components with their area and extent per slice):
 *  - crotch: the highest level in the lower 65% where the body has a gap at its centre
 *    with material on both sides (the legs) directly below a level where it has none;
 *  - neck: above the crotch (or the bottom for a bust), a valley of the central component's
 *    area (a larger section above it, the head, and below it, the shoulders: a convex body has
 *    none, see isValley), the one smallest relative to the smaller of the two, and at least
 *    1.5 times smaller;
 *  - arms: components beside the torso (hanging arms: the cut goes through the gap) or
 *    the central component reaching well beyond the torso's width (T/A-pose: the cut is
 *    at the widest torso slice that carries no arm).
 * Whatever cannot be found is listed in `fallback` and the split makes no part of it (a bust
 * has no legs, a box no head); its field holds a fixed fraction (head = top 15%, crotch at
 * half the neck height, arms = outer thirds of the width), which bounds the search for the
 * other landmarks (the arms' band) and places joints' rectangles.
 */
import type { Manifold } from "manifold-3d";
import type { Arena } from "./manifold";
import type { Bounds } from "./mesh-ops";
import { isValley } from "./split-general";

export interface SliceComponent {
  area: number;
  x0: number;
  x1: number;
  z0: number;
  z1: number;
}
export interface Slice {
  y: number;
  comps: SliceComponent[];
}

export interface Landmarks {
  /** Body centre (x). */
  xc: number;
  /** Height of the crotch cut (legs below). */
  crotch: number;
  /** x of the gap between the legs at the crotch. */
  legGap: number;
  /** Height of the neck cut (head above). */
  neck: number;
  /** x planes beyond which the left (+X) and right (-X) arms lie. */
  leftCut: number;
  rightCut: number;
  /** Landmarks not found in the geometry: the split makes no part of them; their fields hold the fixed fractions. */
  fallback: ("crotch" | "neck" | "left_arm" | "right_arm")[];
}

/** Horizontal slices at n evenly spaced heights (slice centres). */
export function horizontalSlices(
  m: Manifold,
  b: Bounds,
  n: number,
  arena: Arena,
): { slices: Slice[]; probe: (y: number) => SliceComponent[] } {
  // Rotate +90 about X: (x, y, z) -> (x, -z, y), so manifold's z-slices are y-levels.
  const rotated = arena.keep(m.rotate([90, 0, 0]));
  const probe = (y: number): SliceComponent[] => {
    const cs = rotated.slice(y);
    const comps: SliceComponent[] = [];
    for (const piece of cs.decompose()) {
      const r = piece.bounds();
      comps.push({ area: piece.area(), x0: r.min[0], x1: r.max[0], z0: -r.max[1], z1: -r.min[1] });
      piece.delete();
    }
    cs.delete();
    return comps;
  };
  const H = b.max[1] - b.min[1];
  const slices: Slice[] = [];
  for (let i = 0; i < n; i++) {
    const y = b.min[1] + ((i + 0.5) * H) / n;
    slices.push({ y, comps: probe(y) });
  }
  return { slices, probe };
}

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(p * (s.length - 1))))]!;
};

/**
 * `probe(y)` slices at any height (used to locate the crotch between two sampled slices);
 * without it the crotch is placed at the last sampled slice with a gap.
 */
export function findLandmarks(slices: Slice[], b: Bounds, probe?: (y: number) => SliceComponent[]): Landmarks {
  const H = b.max[1] - b.min[1],
    W = b.max[0] - b.min[0];
  const n = slices.length,
    dy = H / n;
  const fallback: Landmarks["fallback"] = [];
  // Ignore specks; the body centre is the area-weighted centroid of the slices.
  const maxArea = Math.max(1e-12, ...slices.map((s) => s.comps.reduce((a, c) => a + c.area, 0)));
  for (const s of slices) s.comps = s.comps.filter((c) => c.area > maxArea * 1e-3);
  let aw = 0,
    ax = 0;
  for (const s of slices)
    for (const c of s.comps) {
      aw += c.area;
      ax += (c.area * (c.x0 + c.x1)) / 2;
    }
  const xc = aw > 0 ? ax / aw : (b.min[0] + b.max[0]) / 2;
  const central = (s: Slice, x = xc): SliceComponent | null => {
    let best: SliceComponent | null = null;
    for (const c of s.comps) if (c.x0 <= x && x <= c.x1 && (!best || c.area > best.area)) best = c;
    return best;
  };

  // Crotch.
  let crotch = NaN,
    legGap = xc; // stays at the centre without a crotch
  for (let i = n - 2; i >= 0; i--) {
    const s = slices[i]!;
    if (s.y > b.min[1] + 0.65 * H) continue;
    const left = s.comps.filter((c) => c.x0 > xc),
      right = s.comps.filter((c) => c.x1 < xc);
    if (central(s) || !left.length || !right.length || !central(slices[i + 1]!)) continue;
    // Innermost components on each side are the legs.
    const l = left.reduce((a, c) => (c.x0 < a.x0 ? c : a)),
      r = right.reduce((a, c) => (c.x1 > a.x1 ? c : a));
    // A real crotch: both legs carry a fair share of the slice's area.
    const tot = s.comps.reduce((a, c) => a + c.area, 0);
    if (l.area < 0.1 * tot || r.area < 0.1 * tot) continue;
    legGap = (l.x0 + r.x1) / 2;
    // Bisect for the junction; cut just below it so both legs stay separate pieces.
    let y0 = s.y,
      y1 = slices[i + 1]!.y;
    if (probe) {
      for (let it = 0; it < 7; it++) {
        const y = (y0 + y1) / 2;
        const comps = probe(y).filter((c) => c.area > maxArea * 1e-3);
        if (comps.some((c) => c.x0 <= legGap && legGap <= c.x1)) y1 = y;
        else y0 = y;
      }
    }
    crotch = y0;
    break;
  }
  if (!Number.isFinite(crotch)) fallback.push("crotch"); // placed below the neck, see there

  // Neck.
  const top = b.max[1];
  const A = slices.map((s) => central(s)?.area ?? 0);
  let neck = NaN,
    bestScore = 1.5;
  // Candidates from a little above the crotch (or the bottom: busts have no legs).
  const base = fallback.includes("crotch") ? b.min[1] : crotch;
  const lo = base + 0.15 * (top - base);
  const scores: number[] = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    const s = slices[i]!;
    if (s.y < lo || s.y > top - 2 * dy || !s.comps.length) continue;
    let above = 0,
      below = 0;
    for (let j = i + 1; j < n; j++) above = Math.max(above, A[j]!);
    for (let j = i - 1; j >= 0 && slices[j]!.y > base; j--) below = Math.max(below, A[j]!);
    // Only a valley between larger sections can be a neck: a convex body has none.
    if (!isValley(A[i]!, below, above, maxArea)) continue;
    const score = Math.min(above, below) / Math.max(A[i]!, 1e-9);
    scores[i] = score;
    if (score > bestScore * 1.02) {
      bestScore = score;
      neck = i;
    }
  }
  if (Number.isFinite(neck)) {
    // A neck of constant width: its middle.
    let i0 = neck,
      i1 = neck;
    while (i0 > 0 && scores[i0 - 1]! >= bestScore * 0.97) i0--;
    while (i1 < n - 1 && scores[i1 + 1]! >= bestScore * 0.97) i1++;
    neck = slices[Math.round((i0 + i1) / 2)]!.y; // i0 and i1 are slice indices
  } else {
    neck = top - 0.15 * H;
    fallback.push("neck");
  }
  // No crotch: at the fixed layout's proportion of the neck height (0.42 / 0.85).
  if (!Number.isFinite(crotch)) crotch = b.min[1] + 0.5 * (neck - b.min[1]);

  // Arms, per side (s = +1 left, -1 right).
  const band = slices.filter((s) => s.y > crotch + dy && s.y < neck - dy);
  const arm = (side: 1 | -1): number | null => {
    const edge = (c: SliceComponent) => (side > 0 ? c.x1 : -c.x0); // outer edge, signed outward
    const inner = (c: SliceComponent) => (side > 0 ? c.x0 : -c.x1);
    const torsoEdges: number[] = [],
      armInner: number[] = [];
    const centralEdges: number[] = [];
    for (const s of band) {
      const t = central(s);
      if (!t) continue;
      centralEdges.push(edge(t));
      const beside = s.comps.filter((c) => c !== t && inner(c) >= edge(t));
      if (beside.length) {
        torsoEdges.push(edge(t));
        armInner.push(Math.min(...beside.map(inner)));
      }
    }
    if (!centralEdges.length) return null;
    if (armInner.length >= Math.max(2, 0.1 * band.length)) {
      // Hanging arms: through the gap between the torso and the arm.
      const t = Math.max(...torsoEdges),
        a = Math.min(...armInner);
      return t < a ? (t + a) / 2 : (percentile(torsoEdges, 0.5) + percentile(armInner, 0.5)) / 2;
    }
    // T/A-pose: slices whose central component reaches far beyond the torso carry an arm.
    const torso = percentile(centralEdges, 0.3);
    const half = torso - side * xc;
    const reach = Math.max(...centralEdges);
    if (reach - torso < 0.5 * Math.max(half, 0.02 * W)) return null;
    const armless = centralEdges.filter((e) => e - torso < 0.25 * Math.max(half, 0.02 * W));
    return Math.max(...armless) + 0.01 * W;
  };
  let leftCut = arm(1) ?? NaN;
  let rightCut = -(arm(-1) ?? NaN);
  if (!Number.isFinite(leftCut)) {
    leftCut = b.max[0] - W / 3;
    fallback.push("left_arm");
  }
  if (!Number.isFinite(rightCut)) {
    rightCut = b.min[0] + W / 3;
    fallback.push("right_arm");
  }
  if (rightCut >= leftCut) {
    const m = (leftCut + rightCut) / 2;
    leftCut = m + 0.01 * W;
    rightCut = m - 0.01 * W;
  }
  return { xc, crotch, legGap, neck, leftCut, rightCut, fallback };
}
