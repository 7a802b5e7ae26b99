/**
 * Mesh segmentation by structure: patches are connected pieces of one k-means cluster
 * (per-face centroid and normal) that never cross a concave crease, then adjacent patches
 * are merged, smooth boundaries and small patches first, crease-bounded parts last, until
 * exactly k regions remain (k = 3 / 6 / 10); see segmentFaces. One part per region
 * (`segment_N`), each with its own plain colour material.
 */
import type { Material, MeshPart, Scene } from "@/lib/engine/mesh/types";
import { InputContentError } from "./errors";
import type { SegmentationJob } from "./job";
import { meshBounds, vertexNormals, weldScene } from "./mesh-ops";
import { mulberry32 } from "./random";
import { CREASE_BEND, edgeBend, faceNormals, halfEdgeTwins } from "./segment-graph";

export const SEGMENT_COUNT: Record<SegmentationJob["segLevel"], number> = { low: 3, medium: 6, high: 10 };
/** Weight of the normal against the bbox-normalised centroid in the k-means features. */
const NORMAL_WEIGHT = 0.35;
const D = 6;

function faceFeatures(positions: Float32Array, indices: Uint32Array, normal: Float32Array): Float32Array {
  const nf = indices.length / 3;
  const b = meshBounds(positions);
  const diag = Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) || 1;
  const feat = new Float32Array(nf * D);
  for (let f = 0; f < nf; f++) {
    const a = indices[f * 3]! * 3,
      c1 = indices[f * 3 + 1]! * 3,
      c2 = indices[f * 3 + 2]! * 3;
    for (let c = 0; c < 3; c++) {
      feat[f * D + c] = (positions[a + c]! + positions[c1 + c]! + positions[c2 + c]! - 3 * b.min[c]!) / (3 * diag);
      feat[f * D + 3 + c] = normal[f * 3 + c]! * NORMAL_WEIGHT;
    }
  }
  return feat;
}

function dist2(feat: Float32Array, f: number, cent: Float32Array, c: number): number {
  let s = 0;
  for (let d = 0; d < D; d++) {
    const t = feat[f * D + d]! - cent[c * D + d]!;
    s += t * t;
  }
  return s;
}

/** k-means++ fitted on a sample of faces, then every face assigned. */
export function kmeansFaces(feat: Float32Array, k: number, seed = 1): Int32Array {
  const nf = feat.length / D;
  const rand = mulberry32(seed);
  const step = Math.max(1, Math.floor(nf / 20000));
  const sample: number[] = [];
  for (let f = 0; f < nf; f += step) sample.push(f);
  const cent = new Float32Array(k * D);
  const best = new Float64Array(sample.length).fill(Infinity);
  let pick = sample[Math.floor(rand() * sample.length)]!;
  for (let c = 0; c < k; c++) {
    cent.set(feat.subarray(pick * D, pick * D + D), c * D);
    let total = 0;
    sample.forEach((f, i) => {
      best[i] = Math.min(best[i]!, dist2(feat, f, cent, c));
      total += best[i]!;
    });
    let r = rand() * total;
    pick = sample[sample.length - 1]!;
    for (let i = 0; i < sample.length; i++) {
      r -= best[i]!;
      if (r <= 0) {
        pick = sample[i]!;
        break;
      }
    }
  }
  const assign = (faces: number[] | null, out: Int32Array) => {
    const n = faces ? faces.length : nf;
    for (let i = 0; i < n; i++) {
      const f = faces ? faces[i]! : i;
      let bc = 0,
        bd = Infinity;
      for (let c = 0; c < k; c++) {
        const d = dist2(feat, f, cent, c);
        if (d < bd) {
          bd = d;
          bc = c;
        }
      }
      out[i] = bc;
    }
  };
  const lab = new Int32Array(sample.length);
  for (let it = 0; it < 20; it++) {
    assign(sample, lab);
    const sum = new Float64Array(k * D),
      cnt = new Uint32Array(k);
    sample.forEach((f, i) => {
      const c = lab[i]!;
      cnt[c]!++;
      for (let d = 0; d < D; d++) sum[c * D + d] = sum[c * D + d]! + feat[f * D + d]!;
    });
    for (let c = 0; c < k; c++) if (cnt[c]) for (let d = 0; d < D; d++) cent[c * D + d] = sum[c * D + d]! / cnt[c]!;
  }
  const labels = new Int32Array(nf);
  assign(null, labels);
  return labels;
}

/** For each face edge e (face * 3 + e), the face across it, or -1. */
export function faceNeighbours(indices: Uint32Array): Int32Array {
  const twin = halfEdgeTwins(indices);
  const nb = new Int32Array(indices.length);
  for (let h = 0; h < indices.length; h++) {
    const g = twin[h]!;
    nb[h] = g < 0 ? -1 : (g - (g % 3)) / 3;
  }
  return nb;
}

/** Merge cost of a boundary without creases relative to one that is all crease. */
const SMOOTH_COST = 0.05;

/** A binary min-heap of (cost, a, b, stamp a, stamp b): stale entries are skipped by stamps. */
class MergeHeap {
  private cost: number[] = [];
  private data: [number, number, number, number, number][] = [];
  get size(): number {
    return this.data.length;
  }
  push(c: number, a: number, b: number, sa: number, sb: number): void {
    const d = this.data,
      cs = this.cost;
    d.push([c, a, b, sa, sb]);
    cs.push(c);
    let i = d.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (cs[p]! <= cs[i]!) break;
      [d[p], d[i]] = [d[i]!, d[p]!];
      [cs[p], cs[i]] = [cs[i]!, cs[p]!];
      i = p;
    }
  }
  pop(): [number, number, number, number, number] | undefined {
    const d = this.data,
      cs = this.cost;
    const top = d[0];
    const last = d.pop()!,
      lc = cs.pop()!;
    if (!d.length) return top;
    d[0] = last;
    cs[0] = lc;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1,
        r = l + 1;
      let m = i;
      if (l < d.length && cs[l]! < cs[m]!) m = l;
      if (r < d.length && cs[r]! < cs[m]!) m = r;
      if (m === i) break;
      [d[m], d[i]] = [d[i]!, d[m]!];
      [cs[m], cs[i]] = [cs[i]!, cs[m]!];
      i = m;
    }
    return top;
  }
}

/**
 * Region (0..k-1, largest first) per face; exactly k regions when there are at least k
 * faces. Structure first: patches are the connected pieces of one k-means cluster that do
 * not cross a concave crease (dihedral bend over 30 degrees), so a limb joined to a body
 * along a crease ring starts apart from it. Adjacent patches are then merged, cheapest
 * first, until k remain: cost = (0.05 + crease share of the shared boundary, by length
 * and bend) x the smaller patch's share of the area. Smooth boundaries and specks go
 * first, crease-bounded parts (limbs, a head on a neck) last. Patches without any
 * neighbour (separate shells) join the one with the nearest centroid. Linear apart from
 * the heap (patches, not faces).
 */
export function segmentFaces(positions: Float32Array, indices: Uint32Array, k: number): Int32Array {
  const nf = indices.length / 3;
  const { normal, area } = faceNormals(positions, indices);
  const feat = faceFeatures(positions, indices, normal);
  const cluster = kmeansFaces(feat, k);
  const twin = halfEdgeTwins(indices, positions.length / 3);
  const bend = edgeBend(positions, indices, twin, normal);
  const face = (h: number) => (h - (h % 3)) / 3;
  // Patches: flood fill within a cluster, never across a crease.
  const comp = new Int32Array(nf).fill(-1);
  const stack = new Int32Array(nf);
  let m = 0;
  for (let s = 0; s < nf; s++) {
    if (comp[s] !== -1) continue;
    let top = 0;
    stack[top++] = s;
    comp[s] = m;
    while (top) {
      const f = stack[--top]!;
      for (let e = 0; e < 3; e++) {
        const h = f * 3 + e,
          t = twin[h]!;
        if (t < 0 || bend[h]! >= CREASE_BEND) continue;
        const g = face(t);
        if (comp[g] === -1 && cluster[g] === cluster[f]) {
          comp[g] = m;
          stack[top++] = g;
        }
      }
    }
    m++;
  }
  const size = new Float64Array(m),
    cen = new Float64Array(m * 3),
    count = new Float64Array(m);
  /** Per patch: neighbour -> [shared boundary length, crease-weighted length]. */
  const adj: Map<number, [number, number]>[] = Array.from({ length: m }, () => new Map());
  for (let f = 0; f < nf; f++) {
    const c = comp[f]!;
    size[c] = size[c]! + area[f]! + 1e-12;
    count[c]!++;
    for (let d = 0; d < 3; d++) cen[c * 3 + d] = cen[c * 3 + d]! + feat[f * D + d]!;
    for (let e = 0; e < 3; e++) {
      const h = f * 3 + e,
        t = twin[h]!;
      if (t < 0) continue;
      const o = comp[face(t)]!;
      if (o === c) continue;
      const a = indices[h]! * 3,
        b = indices[f * 3 + ((e + 1) % 3)]! * 3;
      const len =
        Math.hypot(positions[b]! - positions[a]!, positions[b + 1]! - positions[a + 1]!, positions[b + 2]! - positions[a + 2]!) + 1e-12;
      const w = Math.min(1, Math.max(0, bend[h]! / CREASE_BEND));
      const cur = adj[c]!.get(o);
      if (cur) {
        cur[0] += len;
        cur[1] += w * len;
      } else adj[c]!.set(o, [len, w * len]);
    }
  }
  const totalArea = size.reduce((s, x) => s + x, 0);
  const parent = Int32Array.from({ length: m }, (_, i) => i);
  const alive = new Uint8Array(m).fill(1);
  const stamp = new Uint32Array(m);
  let aliveCount = m;
  const cost = (a: number, b: number, e: [number, number]) => (SMOOTH_COST + e[1] / e[0]) * (Math.min(size[a]!, size[b]!) / totalArea);
  const heap = new MergeHeap();
  for (let a = 0; a < m; a++) for (const [b, e] of adj[a]!) if (a < b) heap.push(cost(a, b, e), a, b, 0, 0);
  /** Merges the smaller-adjacency region into the other; returns the survivor. */
  const merge = (x: number, y: number): number => {
    const [a, b] = adj[x]!.size <= adj[y]!.size ? [x, y] : [y, x];
    for (const [n, e] of adj[a]!) {
      if (n === b) continue;
      const cur = adj[b]!.get(n);
      if (cur) {
        cur[0] += e[0];
        cur[1] += e[1];
      } else adj[b]!.set(n, [e[0], e[1]]);
      adj[n]!.delete(a);
      adj[n]!.set(b, adj[b]!.get(n)!);
    }
    adj[b]!.delete(a);
    adj[a]!.clear();
    size[b] = size[b]! + size[a]!;
    count[b] = count[b]! + count[a]!;
    for (let d = 0; d < 3; d++) cen[b * 3 + d] = cen[b * 3 + d]! + cen[a * 3 + d]!;
    parent[a] = b;
    alive[a] = 0;
    aliveCount--;
    stamp[b]!++;
    for (const [n, e] of adj[b]!) heap.push(cost(b, n, e), b, n, stamp[b]!, stamp[n]!);
    return b;
  };
  while (aliveCount > k && heap.size) {
    const [, a, b, sa, sb] = heap.pop()!;
    // Stale: a side is gone or changed since the entry was pushed.
    if (!alive[a] || !alive[b] || stamp[a] !== sa || stamp[b] !== sb) continue;
    merge(a, b);
  }
  // Separate shells: the smallest joins the nearest centroid.
  while (aliveCount > k) {
    let a = -1;
    for (let j = 0; j < m; j++) if (alive[j] && (a < 0 || size[j]! < size[a]!)) a = j;
    let best = -1,
      bd = Infinity;
    for (let j = 0; j < m; j++) {
      if (!alive[j] || j === a) continue;
      let d2 = 0;
      for (let d = 0; d < 3; d++) d2 += (cen[a * 3 + d]! / count[a]! - cen[j * 3 + d]! / count[j]!) ** 2;
      if (d2 < bd) {
        bd = d2;
        best = j;
      }
    }
    merge(a, best);
  }
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i]!;
    return i;
  };
  const ids = Array.from({ length: m }, (_, i) => i)
    .filter((i) => alive[i])
    .sort((a, b) => size[b]! - size[a]!);
  const rank = new Int32Array(m).fill(-1);
  ids.forEach((id, i) => (rank[id] = i));
  const labels = new Int32Array(nf);
  for (let f = 0; f < nf; f++) labels[f] = rank[find(comp[f]!)]!;
  smoothBoundaries(labels, positions, indices, { twin, bend, area }, ids.length);
  splitUntil(labels, feat, k, ids.length);
  return labels;
}

/** Reach of the boundary vote, as a fraction of the bounding box diagonal. */
const VOTE_RADIUS = 0.025;

/**
 * Planes off the saw-teeth k-means leaves where segments meet on a smooth surface: each
 * segment's surface area is binned on a grid of half VOTE_RADIUS cells, box-filtered
 * over 3x3x3 cells, and every face takes the segment with the most area around its
 * centre (trilinear between cell centres, so boundaries come out as smooth curves, not
 * cell steps). Linear in faces. Faces on a crease keep their segment, and the labels
 * stay as they were if a segment would vanish.
 */
export function smoothBoundaries(
  labels: Int32Array,
  positions: Float32Array,
  indices: Uint32Array,
  graph: { twin: Int32Array; bend: Float32Array; area: Float32Array },
  count: number,
): void {
  const nf = labels.length;
  const { twin, bend, area } = graph;
  const cen = new Float32Array(nf * 3);
  for (let f = 0; f < nf; f++) {
    for (let c = 0; c < 3; c++)
      cen[f * 3 + c] =
        (positions[indices[f * 3]! * 3 + c]! + positions[indices[f * 3 + 1]! * 3 + c]! + positions[indices[f * 3 + 2]! * 3 + c]!) / 3;
  }
  const b = meshBounds(cen);
  const cell = (VOTE_RADIUS / 2) * (Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) || 1);
  // One empty cell of margin on each side, so trilinear lookups never leave the grid.
  const dims = [0, 1, 2].map((c) => Math.ceil((b.max[c]! - b.min[c]!) / cell) + 3) as [number, number, number];
  const sx = count,
    sy = dims[0] * count,
    sz = dims[0] * dims[1] * count;
  let hist = new Float32Array(dims[0] * dims[1] * dims[2] * count);
  const coord = (f: number, c: number) => (cen[f * 3 + c]! - b.min[c]!) / cell + 1; // cell units, centres at +0.5
  for (let f = 0; f < nf; f++) {
    const i = Math.floor(coord(f, 0)),
      j = Math.floor(coord(f, 1)),
      k = Math.floor(coord(f, 2));
    const o = k * sz + j * sy + i * sx + labels[f]!;
    hist[o] = hist[o]! + area[f]!;
  }
  // 3x3x3 box filter, one axis at a time.
  let tmp = new Float32Array(hist.length);
  for (const [stride, n] of [
    [sx, dims[0]],
    [sy, dims[1]],
    [sz, dims[2]],
  ] as const) {
    for (let o = 0; o < hist.length; o++) {
      const at = Math.floor(o / stride) % n;
      tmp[o] = hist[o]! + (at > 0 ? hist[o - stride]! : 0) + (at < n - 1 ? hist[o + stride]! : 0);
    }
    [hist, tmp] = [tmp, hist];
  }
  const face = (h: number) => (h - (h % 3)) / 3;
  const onCrease = new Uint8Array(nf);
  for (let h = 0; h < nf * 3; h++) if (twin[h]! >= 0 && bend[h]! >= CREASE_BEND) onCrease[face(h)] = 1;
  const out = Int32Array.from(labels);
  const votes = new Float64Array(count);
  for (let f = 0; f < nf; f++) {
    if (onCrease[f]) continue;
    const x = coord(f, 0) - 0.5,
      y = coord(f, 1) - 0.5,
      z = coord(f, 2) - 0.5;
    const i = Math.floor(x),
      j = Math.floor(y),
      k = Math.floor(z);
    const fx = x - i,
      fy = y - j,
      fz = z - k;
    votes.fill(0);
    for (let corner = 0; corner < 8; corner++) {
      const di = corner & 1,
        dj = (corner >> 1) & 1,
        dk = corner >> 2;
      const w = (di ? fx : 1 - fx) * (dj ? fy : 1 - fy) * (dk ? fz : 1 - fz);
      const o = (k + dk) * sz + (j + dj) * sy + (i + di) * sx;
      for (let l = 0; l < count; l++) votes[l] = votes[l]! + w * hist[o + l]!;
    }
    let best = labels[f]!;
    for (let l = 0; l < count; l++) if (votes[l]! > votes[best]!) best = l;
    out[f] = best;
  }
  const size = new Uint32Array(count);
  for (let f = 0; f < nf; f++) size[out[f]!]!++;
  if (!size.some((x) => x === 0)) labels.set(out);
}

/** Fewer regions than k (tiny meshes): halve the largest region along x until k. */
function splitUntil(labels: Int32Array, feat: Float32Array, k: number, have: number): void {
  for (let next = have; next < k; next++) {
    const cnt = new Uint32Array(next);
    for (const l of labels) cnt[l]!++;
    let big = 0;
    for (let i = 1; i < next; i++) if (cnt[i]! > cnt[big]!) big = i;
    if (cnt[big]! < 2) return;
    const xs: number[] = [];
    labels.forEach((l, f) => {
      if (l === big) xs.push(feat[f * D]!);
    });
    xs.sort((a, b) => a - b);
    const med = xs[Math.floor(xs.length / 2)]!;
    let moved = 0;
    labels.forEach((l, f) => {
      if (l === big && feat[f * D]! >= med && moved < xs.length - 1) {
        labels[f] = next;
        moved++;
      }
    });
  }
}

const COLORS: [number, number, number][] = [
  [0.8, 0.15, 0.1],
  [0.1, 0.4, 0.8],
  [0.15, 0.65, 0.2],
  [0.9, 0.7, 0.1],
  [0.5, 0.2, 0.7],
  [0.1, 0.7, 0.7],
  [0.9, 0.35, 0.6],
  [0.45, 0.3, 0.15],
  [0.95, 0.45, 0.05],
  [0.3, 0.3, 0.3],
];

/**
 * One plain material per segment, colour r of COLORS (then golden-angle hues). Materials
 * rather than vertex colours: every writer keeps them, and glTF / the cover multiply
 * vertex colours with the material's factor, which would darken a colour given twice.
 */
export function segmentMaterial(r: number): Material {
  let c = COLORS[r];
  if (!c) {
    const h = (r * 0.618033988749895) % 1;
    const f = (k: number) => {
      const x = (k + h * 6) % 6;
      return 0.85 - 0.6 * Math.max(0, Math.min(x, 4 - x, 1));
    };
    c = [f(5), f(3), f(1)];
  }
  return { name: `segment_${r + 1}`, baseColorFactor: [c[0], c[1], c[2], 1], metallicFactor: 0, roughnessFactor: 0.7 };
}

export function buildSegmentationScene(scene: Scene, level: SegmentationJob["segLevel"]): Scene {
  const { positions, indices } = weldScene(scene);
  if (!indices.length) throw new InputContentError("the mesh has no triangles");
  const k = SEGMENT_COUNT[level];
  const labels = segmentFaces(positions, indices, k);
  const parts: MeshPart[] = [];
  const remap = new Int32Array(positions.length / 3);
  for (let r = 0; r < k; r++) {
    remap.fill(-1);
    const pos: number[] = [],
      idx: number[] = [];
    for (let f = 0; f < labels.length; f++) {
      if (labels[f] !== r) continue;
      for (let e = 0; e < 3; e++) {
        const v = indices[f * 3 + e]!;
        if (remap[v] === -1) {
          remap[v] = pos.length / 3;
          pos.push(positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!);
        }
        idx.push(remap[v]!);
      }
    }
    if (!idx.length) continue;
    const p = new Float32Array(pos),
      ind = new Uint32Array(idx);
    parts.push({ name: `segment_${r + 1}`, positions: p, indices: ind, normals: vertexNormals(p, ind), material: segmentMaterial(r) });
  }
  return { parts };
}
