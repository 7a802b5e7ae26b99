/**
 * Multi-view reconstruction: orthographic silhouettes (front required; back, left,
 * right optional) carve a voxel grid. Without a left or right view nothing bounds the
 * depth, so the front silhouette's inflation (see inflate.ts) does; with one the result
 * is the visual hull proper (for orthographic views, the intersection of the extruded
 * silhouettes). The voxel set is
 * made well-composed (so its boundary is a two-manifold), its faces are extracted, moved
 * onto the 0.5 level of a blurred occupancy field and Taubin-smoothed.
 *
 * View frames (camera looking at the origin, +Y up): front from +Z (image x -> +X),
 * back from -Z (image x -> -X), left from -X (image x -> +Z), right from +X
 * (image x -> -Z). Each silhouette is scaled to the common height and centred.
 */
import type { View } from "./job";
import { InputContentError } from "./errors";
import { inflateHeights } from "./inflate";
import { maskBounds } from "./mask-ops";
import { taubinSmooth } from "./mesh-ops";

export interface ViewSilhouette {
  view: View;
  mask: Uint8Array;
  width: number;
  height: number;
}

export interface HullOptions {
  /** Voxels across the longest extent. */
  cells: number;
  maxTriangles: number;
  /** Height of the result in millimetres (default 100). */
  heightMm?: number;
  /** Taubin smoothing iterations (default 6). */
  smoothing?: number;
}

export interface HullMesh {
  positions: Float32Array;
  indices: Uint32Array;
  /** Front projection: u = ax * X + bx, v = ay * Y + by. */
  frontUv: { ax: number; bx: number; ay: number; by: number };
}

/** Bit patterns of a 2x2x2 block whose set or unset voxels are not face-connected. */
const BAD_BLOCK = (() => {
  const connected = (set: number) => {
    if (!set) return true;
    let seen = set & -set;
    for (let changed = true; changed;) {
      changed = false;
      for (let b = 0; b < 8; b++) {
        if (!(seen & (1 << b))) continue;
        for (const nb of [b ^ 1, b ^ 2, b ^ 4]) {
          if (set & (1 << nb) && !(seen & (1 << nb))) {
            seen |= 1 << nb;
            changed = true;
          }
        }
      }
    }
    return seen === set;
  };
  const t = new Uint8Array(256);
  for (let m = 0; m < 256; m++) t[m] = connected(m) && connected(~m & 255) ? 0 : 1;
  return t;
})();

interface Frame {
  cx: number;
  bottom: number;
  s: number;
  halfWidth: number;
}

function frameOf(v: ViewSilhouette, heightMm: number): Frame {
  const b = maskBounds(v.mask, v.width, v.height);
  if (!b) throw new InputContentError(`the ${v.view} image has no foreground`);
  const s = heightMm / (b.y1 - b.y0 + 1); // mm per pixel
  return { cx: (b.x0 + b.x1 + 1) / 2, bottom: b.y1 + 1, s, halfWidth: ((b.x1 - b.x0 + 1) * s) / 2 };
}

/** Mask lookup of a view at horizontal offset `a` (mm from its centre) and height Y (mm). */
function inside(v: ViewSilhouette, f: Frame, a: number, y: number): number {
  const px = Math.floor(f.cx + a / f.s),
    py = Math.floor(f.bottom - y / f.s);
  return px >= 0 && py >= 0 && px < v.width && py < v.height ? v.mask[py * v.width + px]! : 0;
}

export function visualHull(views: ViewSilhouette[], opts: HullOptions): HullMesh {
  const H = opts.heightMm ?? 100;
  const front = views.find((v) => v.view === "front");
  if (!front) throw new InputContentError("the front view is required");
  const ff = frameOf(front, H);
  const others = views.filter((v) => v.view !== "front").map((v) => ({ v, f: frameOf(v, H) }));
  const sides = others.filter((o) => o.v.view === "left" || o.v.view === "right");
  const Xh = ff.halfWidth;
  const sideZh = sides.length ? Math.max(...sides.map((o) => o.f.halfWidth)) : 0;
  let cells = Math.max(16, Math.round(opts.cells));
  for (;;) {
    const vs = Math.max(2 * Xh, H, 2 * sideZh) / cells;
    const pad = 2;
    const nx = Math.ceil((2 * Xh) / vs) + 2 * pad,
      ny = Math.ceil(H / vs) + 2 * pad;
    const X = (ix: number) => -Xh + (ix - pad + 0.5) * vs;
    const Y = (iy: number) => (iy - pad + 0.5) * vs;
    // Front silhouette and its inflation on the (x, y) voxel columns.
    const front2d = new Uint8Array(nx * ny);
    for (let iy = 0; iy < ny; iy++) for (let ix = 0; ix < nx; ix++) front2d[iy * nx + ix] = inside(front, ff, X(ix), Y(iy));
    const hz = inflateHeights(front2d, nx, ny, 0.5);
    let hmax = 0;
    for (let i = 0; i < hz.length; i++) if (hz[i]! > hmax) hmax = hz[i]!;
    if (hmax === 0) throw new InputContentError("the front silhouette is too small");
    const Zh = sides.length ? sideZh : hmax * vs;
    const nz = Math.ceil((2 * Zh) / vs) + 2 * pad;
    const Z = (iz: number) => -Zh + (iz - pad + 0.5) * vs;
    // Per-view lookups on their own axes.
    const cols: { view: View; lut: Uint8Array }[] = others.map(({ v, f }) => {
      const along = v.view === "back" ? nx : nz;
      const lut = new Uint8Array(along * ny);
      for (let iy = 0; iy < ny; iy++) {
        for (let i = 0; i < along; i++) {
          const a = v.view === "back" ? -X(i) : v.view === "left" ? Z(i) : -Z(i);
          lut[iy * along + i] = inside(v, f, a, Y(iy));
        }
      }
      return { view: v.view, lut };
    });
    const occ = new Uint8Array(nx * ny * nz);
    for (let iy = 0; iy < ny; iy++) {
      for (let ix = 0; ix < nx; ix++) {
        if (!front2d[iy * nx + ix]) continue;
        // With a side view the hull is carved from the silhouettes alone; without one the
        // front inflation supplies the depth nothing else can.
        const lim = sides.length ? Infinity : hz[iy * nx + ix]! * vs;
        let backOk = 1;
        for (const c of cols) if (c.view === "back") backOk &= c.lut[iy * nx + ix]!;
        if (!backOk) continue;
        for (let iz = 0; iz < nz; iz++) {
          if (Math.abs(Z(iz)) > lim) continue;
          let ok = 1;
          for (const c of cols) if (c.view !== "back") ok &= c.lut[iy * nz + iz]!;
          if (ok) occ[(iz * ny + iy) * nx + ix] = 1;
        }
      }
    }
    makeWellComposed(occ, nx, ny, nz);
    const surf = voxelSurface(occ, nx, ny, nz, opts.maxTriangles);
    if (!surf && cells > 16) {
      cells = Math.max(16, Math.floor(cells * 0.8));
      continue;
    }
    if (!surf) throw new InputContentError(`the hull needs more than ${opts.maxTriangles} triangles even at 16 cells`);
    if (surf.indices.length === 0) throw new InputContentError("the silhouettes do not intersect");
    relaxToField(surf.positions, occ, nx, ny, nz);
    taubinSmooth(surf.positions, surf.indices, opts.smoothing ?? 6);
    const p = surf.positions;
    for (let i = 0; i < p.length; i += 3) {
      p[i] = -Xh + (p[i]! - pad) * vs;
      p[i + 1] = (p[i + 1]! - pad) * vs;
      p[i + 2] = -Zh + (p[i + 2]! - pad) * vs;
    }
    return {
      positions: p,
      indices: surf.indices,
      frontUv: { ax: 1 / (ff.s * front.width), bx: ff.cx / front.width, ay: -1 / (ff.s * front.height), by: ff.bottom / front.height },
    };
  }
}

/** Fills every 2x2x2 block with a non-face-connected pattern until none is left. */
export function makeWellComposed(occ: Uint8Array, nx: number, ny: number, nz: number): void {
  const sy = nx,
    sz = nx * ny;
  for (let pass = 0; pass < 32; pass++) {
    let changed = false;
    for (let z = 0; z < nz - 1; z++) {
      for (let y = 0; y < ny - 1; y++) {
        let o = z * sz + y * sy;
        for (let x = 0; x < nx - 1; x++, o++) {
          const m =
            occ[o]! |
            (occ[o + 1]! << 1) |
            (occ[o + sy]! << 2) |
            (occ[o + sy + 1]! << 3) |
            (occ[o + sz]! << 4) |
            (occ[o + sz + 1]! << 5) |
            (occ[o + sz + sy]! << 6) |
            (occ[o + sz + sy + 1]! << 7);
          if (!BAD_BLOCK[m]) continue;
          occ[o] = occ[o + 1] = occ[o + sy] = occ[o + sy + 1] = 1;
          occ[o + sz] = occ[o + sz + 1] = occ[o + sz + sy] = occ[o + sz + sy + 1] = 1;
          changed = true;
        }
      }
    }
    if (!changed) return;
  }
}

/**
 * Boundary faces of the voxel set as triangles with vertices shared on grid corners (in
 * voxel units), outward counter-clockwise; null when more than maxTriangles.
 */
export function voxelSurface(
  occ: Uint8Array,
  nx: number,
  ny: number,
  nz: number,
  maxTriangles: number,
): { positions: Float32Array; indices: Uint32Array } | null {
  const vx = nx + 1,
    vy = ny + 1;
  const vid = new Int32Array(vx * vy * (nz + 1)).fill(-1);
  const pos: number[] = [];
  const idx: number[] = [];
  const at = (x: number, y: number, z: number) =>
    x >= 0 && y >= 0 && z >= 0 && x < nx && y < ny && z < nz ? occ[(z * ny + y) * nx + x]! : 0;
  const vert = (x: number, y: number, z: number) => {
    const k = (z * vy + y) * vx + x;
    let v = vid[k]!;
    if (v < 0) {
      v = vid[k] = pos.length / 3;
      pos.push(x, y, z);
    }
    return v;
  };
  // Quad base, base + u, base + u + w, base + w (u x w = outward normal).
  const quad = (x: number, y: number, z: number, ux: number, uy: number, uz: number, wx: number, wy: number, wz: number) => {
    const a = vert(x, y, z),
      b = vert(x + ux, y + uy, z + uz);
    const c = vert(x + ux + wx, y + uy + wy, z + uz + wz),
      d = vert(x + wx, y + wy, z + wz);
    idx.push(a, b, c, a, c, d);
  };
  for (let z = 0; z < nz; z++) {
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) {
        if (!occ[(z * ny + y) * nx + x]) continue;
        if (!at(x + 1, y, z)) quad(x + 1, y, z, 0, 1, 0, 0, 0, 1);
        if (!at(x - 1, y, z)) quad(x, y, z, 0, 0, 1, 0, 1, 0);
        if (!at(x, y + 1, z)) quad(x, y + 1, z, 0, 0, 1, 1, 0, 0);
        if (!at(x, y - 1, z)) quad(x, y, z, 1, 0, 0, 0, 0, 1);
        if (!at(x, y, z + 1)) quad(x, y, z + 1, 1, 0, 0, 0, 1, 0);
        if (!at(x, y, z - 1)) quad(x, y, z, 0, 1, 0, 1, 0, 0);
        if (idx.length / 3 > maxTriangles) return null;
      }
    }
  }
  return { positions: new Float32Array(pos), indices: new Uint32Array(idx) };
}

/**
 * Moves every surface vertex (on integer voxel corners) towards the 0.5 level of the
 * occupancy averaged to the corners and blurred ([1 2 1] per axis): one Newton step
 * along the gradient, at most 0.75 voxel, so the topology is kept. In place.
 */
export function relaxToField(positions: Float32Array, occ: Uint8Array, nx: number, ny: number, nz: number): void {
  const vx = nx + 1,
    vy = ny + 1,
    vz = nz + 1;
  const sy = vx,
    sz = vx * vy;
  let f = new Float32Array(vx * vy * vz);
  const at = (x: number, y: number, z: number) =>
    x >= 0 && y >= 0 && z >= 0 && x < nx && y < ny && z < nz ? occ[(z * ny + y) * nx + x]! : 0;
  for (let z = 0; z < vz; z++) {
    for (let y = 0; y < vy; y++) {
      for (let x = 0; x < vx; x++) {
        let s = 0;
        for (let k = 0; k < 8; k++) s += at(x - 1 + (k & 1), y - 1 + ((k >> 1) & 1), z - 1 + ((k >> 2) & 1));
        f[z * sz + y * sy + x] = s / 8;
      }
    }
  }
  let g = new Float32Array(f.length);
  for (const [stride, n] of [
    [1, vx],
    [sy, vy],
    [sz, vz],
  ] as const) {
    for (let i = 0; i < f.length; i++) {
      const c = Math.floor(i / stride) % n;
      const lo = c > 0 ? f[i - stride]! : 0,
        hi = c < n - 1 ? f[i + stride]! : 0;
      g[i] = 0.25 * lo + 0.5 * f[i]! + 0.25 * hi;
    }
    [f, g] = [g, f];
  }
  for (let v = 0; v < positions.length; v += 3) {
    const x = positions[v]!,
      y = positions[v + 1]!,
      z = positions[v + 2]!;
    if (x < 1 || y < 1 || z < 1 || x > vx - 2 || y > vy - 2 || z > vz - 2) continue;
    const i = z * sz + y * sy + x;
    const gx = (f[i + 1]! - f[i - 1]!) / 2,
      gy = (f[i + sy]! - f[i - sy]!) / 2,
      gz = (f[i + sz]! - f[i - sz]!) / 2;
    const g2 = gx * gx + gy * gy + gz * gz;
    if (g2 < 1e-8) continue;
    let t = (0.5 - f[i]!) / g2;
    const len = Math.abs(t) * Math.sqrt(g2);
    if (len > 0.75) t *= 0.75 / len;
    positions[v] = x + t * gx;
    positions[v + 1] = y + t * gy;
    positions[v + 2] = z + t * gz;
  }
}
