/**
 * Connectors for a split model: at every cut face shared by two parts, one connector per
 * connected piece of the cross-section (ball = sphere, pin = cylinder, dovetail =
 * trapezoid key sliding in a slot open to one side), added to the parent and cut with
 * clearance from the other parts; or, unmerged, kept as separate parts.
 */
import type { CrossSection, Manifold, ManifoldToplevel, Mat4, Vec2 } from "manifold-3d";
import type { Arena } from "./manifold";

export type JointKind = "ball" | "dovetail" | "pin";

/** A cut face: plane p[axis] = offset; `rect` bounds it on the other two axes (u, w). */
export interface CutFace {
  axis: 0 | 1 | 2;
  offset: number;
  /** +1 when the child lies on the positive side of the plane. */
  childSide: 1 | -1;
  /** [uMin, uMax, wMin, wMax] with (u, w) = the axes after `axis`, cyclically. */
  rect: [number, number, number, number];
}

export const CLEARANCE_MM = 0.2;

/** Maps world p -> slice frame (p[u], p[w], p[axis]) or back (inverse = transpose). */
function permutation(axis: 0 | 1 | 2, inverse: boolean, t: [number, number, number] = [0, 0, 0]): Mat4 {
  const u = (axis + 1) % 3,
    w = (axis + 2) % 3;
  const m: Mat4 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
  const rows: [number, number][] = [
    [0, u],
    [1, w],
    [2, axis],
  ];
  for (const [r, c] of rows) {
    if (inverse)
      m[r * 4 + c] = 1; // row c, column r
    else m[c * 4 + r] = 1;
  }
  m[12] = t[0];
  m[13] = t[1];
  m[14] = t[2];
  return m;
}

/** Area-weighted centroid of a cross-section's contours (holes count negative). */
function centroid(cs: CrossSection): Vec2 | null {
  let a = 0,
    cx = 0,
    cy = 0;
  for (const poly of cs.toPolygons()) {
    for (let i = 0; i < poly.length; i++) {
      const [x0, y0] = poly[i]!,
        [x1, y1] = poly[(i + 1) % poly.length]!;
      const c = x0 * y1 - x1 * y0;
      a += c;
      cx += (x0 + x1) * c;
      cy += (y0 + y1) * c;
    }
  }
  return Math.abs(a) < 1e-12 ? null : [cx / (3 * a), cy / (3 * a)];
}

export interface Connector {
  /** The connector solid (world frame). */
  key: Manifold;
  /** What the other side loses: the key grown by the clearance (world frame). */
  cutter: Manifold;
}

/**
 * Connectors for the cross-section on `face` of `child` (the child's piece, sliced just
 * inside its cut face).
 */
export function connectorsAt(
  wasm: ManifoldToplevel,
  arena: Arena,
  child: Manifold,
  face: CutFace,
  kind: JointKind,
  extent: number,
): Connector[] {
  const { Manifold: M, CrossSection: CS } = wasm;
  const inside = face.offset + face.childSide * extent * 1e-4;
  const slice = arena.keep(arena.keep(child.transform(permutation(face.axis, false))).slice(inside));
  const [u0, u1, w0, w1] = face.rect;
  const big = extent * 4;
  const rect = arena.keep(
    CS.square([Math.min(u1, big) - Math.max(u0, -big), Math.min(w1, big) - Math.max(w0, -big)]).translate([
      Math.max(u0, -big),
      Math.max(w0, -big),
    ]),
  );
  const section = arena.keep(slice.intersect(rect));
  const out: Connector[] = [];
  const toWorld = permutation(face.axis, true);
  for (const piece of section.decompose()) {
    arena.keep(piece);
    const area = piece.area();
    if (area < 1) continue;
    let r = 0.3 * Math.sqrt(area / Math.PI);
    let inset = arena.keep(piece.offset(-r * 1.2, "Round"));
    if (inset.isEmpty()) {
      r *= 0.5;
      inset = arena.keep(piece.offset(-r * 1.2, "Round"));
    }
    const c = centroid(inset.isEmpty() ? piece : inset);
    if (!c || r < 0.5) continue;
    const [cx, cy] = c;
    const s = face.childSide,
      o = face.offset,
      cl = CLEARANCE_MM;
    let key: Manifold, cutter: Manifold;
    if (kind === "ball") {
      key = M.sphere(r, 32).translate([cx, cy, o]);
      cutter = M.sphere(r + cl, 32).translate([cx, cy, o]);
    } else if (kind === "pin") {
      const rp = r * 0.6,
        len = r * 1.5;
      key = M.cylinder(2 * len, rp, rp, 24, true).translate([cx, cy, o]);
      cutter = M.cylinder(2 * (len + cl), rp + cl, rp + cl, 24, true).translate([cx, cy, o]);
    } else {
      // Trapezoid in (along u, depth into the child), extruded along w.
      const wn = r * 0.5,
        ww = r * 0.8,
        depth = r,
        embed = r * 0.5;
      const poly: Vec2[] = [
        [-wn, -embed],
        [wn, -embed],
        [ww, depth],
        [-ww, depth],
      ];
      const frame = (y0: number): Mat4 => [1, 0, 0, 0, 0, 0, s, 0, 0, 1, 0, 0, cx, y0, o, 1];
      const shape = arena.keep(new CS(poly));
      const grown = arena.keep(shape.offset(cl, "Miter"));
      key = arena.keep(shape.extrude(2 * r)).transform(frame(cy - r));
      // The slot runs out of the part on the +w side so the key can slide in.
      cutter = arena.keep(grown.extrude(r + cl + extent)).transform(frame(cy - r - cl));
    }
    out.push({ key: arena.keep(arena.keep(key).transform(toWorld)), cutter: arena.keep(arena.keep(cutter).transform(toWorld)) });
  }
  return out;
}

/** Axis-aligned boxes overlap (with a margin). */
export function boxesOverlap(a: Manifold, b: Manifold, margin = 0.01): boolean {
  const A = a.boundingBox(),
    B = b.boundingBox();
  return ([0, 1, 2] as const).every((i) => !(A.max[i] + margin < B.min[i] || B.max[i] + margin < A.min[i]));
}
