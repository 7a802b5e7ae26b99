/**
 * Mesh segmentation: k-means on per-face (centroid, normal) features, split into
 * connected components, then small / surplus components merged into the neighbour
 * they share the most edges with until exactly k regions remain (k = 3 / 6 / 10).
 * One part per region (`segment_N`), each with its own plain colour material.
 */
import type { Material, MeshPart, Scene } from "@/lib/engine/mesh/types";
import { InputContentError } from "./errors";
import type { SegmentationJob } from "./job";
import { meshBounds, vertexNormals, weldScene } from "./mesh-ops";

export const SEGMENT_COUNT: Record<SegmentationJob["segLevel"], number> = { low: 3, medium: 6, high: 10 };
/** Weight of the normal against the bbox-normalised centroid in the k-means features. */
const NORMAL_WEIGHT = 0.35;
const D = 6;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function faceFeatures(positions: Float32Array, indices: Uint32Array): { feat: Float32Array; area: Float32Array } {
  const nf = indices.length / 3;
  const b = meshBounds(positions);
  const diag = Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) || 1;
  const feat = new Float32Array(nf * D), area = new Float32Array(nf);
  for (let f = 0; f < nf; f++) {
    const a = indices[f * 3]! * 3, c1 = indices[f * 3 + 1]! * 3, c2 = indices[f * 3 + 2]! * 3;
    const ux = positions[c1]! - positions[a]!, uy = positions[c1 + 1]! - positions[a + 1]!, uz = positions[c1 + 2]! - positions[a + 2]!;
    const vx = positions[c2]! - positions[a]!, vy = positions[c2 + 1]! - positions[a + 1]!, vz = positions[c2 + 2]! - positions[a + 2]!;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const l = Math.hypot(nx, ny, nz);
    area[f] = l / 2;
    const inv = l > 0 ? NORMAL_WEIGHT / l : 0;
    for (let c = 0; c < 3; c++) feat[f * D + c] = (positions[a + c]! + positions[c1 + c]! + positions[c2 + c]! - 3 * b.min[c]!) / (3 * diag);
    feat[f * D + 3] = nx * inv; feat[f * D + 4] = ny * inv; feat[f * D + 5] = nz * inv;
  }
  return { feat, area };
}

function dist2(feat: Float32Array, f: number, cent: Float32Array, c: number): number {
  let s = 0;
  for (let d = 0; d < D; d++) { const t = feat[f * D + d]! - cent[c * D + d]!; s += t * t; }
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
    sample.forEach((f, i) => { best[i] = Math.min(best[i]!, dist2(feat, f, cent, c)); total += best[i]!; });
    let r = rand() * total;
    pick = sample[sample.length - 1]!;
    for (let i = 0; i < sample.length; i++) { r -= best[i]!; if (r <= 0) { pick = sample[i]!; break; } }
  }
  const assign = (faces: number[] | null, out: Int32Array) => {
    const n = faces ? faces.length : nf;
    for (let i = 0; i < n; i++) {
      const f = faces ? faces[i]! : i;
      let bc = 0, bd = Infinity;
      for (let c = 0; c < k; c++) { const d = dist2(feat, f, cent, c); if (d < bd) { bd = d; bc = c; } }
      out[i] = bc;
    }
  };
  const lab = new Int32Array(sample.length);
  for (let it = 0; it < 20; it++) {
    assign(sample, lab);
    const sum = new Float64Array(k * D), cnt = new Uint32Array(k);
    sample.forEach((f, i) => { const c = lab[i]!; cnt[c]!++; for (let d = 0; d < D; d++) sum[c * D + d] = sum[c * D + d]! + feat[f * D + d]!; });
    for (let c = 0; c < k; c++) if (cnt[c]) for (let d = 0; d < D; d++) cent[c * D + d] = sum[c * D + d]! / cnt[c]!;
  }
  const labels = new Int32Array(nf);
  assign(null, labels);
  return labels;
}

/** For each face edge e (face * 3 + e), the face across it, or -1. */
export function faceNeighbours(indices: Uint32Array): Int32Array {
  const nb = new Int32Array(indices.length).fill(-1);
  const open = new Map<number, number>();
  let nv = 0;
  for (let i = 0; i < indices.length; i++) nv = Math.max(nv, indices[i]! + 1);
  for (let h = 0; h < indices.length; h++) {
    const f = (h - (h % 3)) / 3;
    const a = indices[h]!, b = indices[f * 3 + ((h + 1) % 3)]!;
    const key = Math.min(a, b) * nv + Math.max(a, b);
    const other = open.get(key);
    if (other === undefined) open.set(key, h);
    else { nb[h] = (other - (other % 3)) / 3; nb[other] = f; open.delete(key); }
  }
  return nb;
}

/** Region (0..k-1) per face; exactly k regions when there are at least k faces. */
export function segmentFaces(positions: Float32Array, indices: Uint32Array, k: number): Int32Array {
  const nf = indices.length / 3;
  const { feat, area } = faceFeatures(positions, indices);
  const cluster = kmeansFaces(feat, k);
  const nb = faceNeighbours(indices);
  // Connected components of equal cluster labels.
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
        const g = nb[f * 3 + e]!;
        if (g >= 0 && comp[g] === -1 && cluster[g] === cluster[f]) { comp[g] = m; stack[top++] = g; }
      }
    }
    m++;
  }
  const size = new Float64Array(m), cen = new Float64Array(m * 3);
  const adj: Map<number, number>[] = Array.from({ length: m }, () => new Map());
  for (let f = 0; f < nf; f++) {
    const c = comp[f]!;
    size[c] = size[c]! + area[f]! + 1e-12;
    for (let d = 0; d < 3; d++) cen[c * 3 + d] = cen[c * 3 + d]! + feat[f * D + d]!;
    for (let e = 0; e < 3; e++) {
      const g = nb[f * 3 + e]!;
      if (g < 0 || comp[g] === c) continue;
      adj[c]!.set(comp[g]!, (adj[c]!.get(comp[g]!) ?? 0) + 1);
    }
  }
  const count = new Float64Array(m);
  for (let f = 0; f < nf; f++) count[comp[f]!]!++;
  const parent = Int32Array.from({ length: m }, (_, i) => i);
  const alive = new Uint8Array(m).fill(1);
  let aliveCount = m;
  const merge = (a: number, b: number) => {
    for (const [n, c] of adj[a]!) {
      if (n === b) continue;
      adj[b]!.set(n, (adj[b]!.get(n) ?? 0) + c);
      adj[n]!.delete(a);
      adj[n]!.set(b, (adj[n]!.get(b) ?? 0) + c);
    }
    adj[b]!.delete(a);
    adj[a]!.clear();
    size[b] = size[b]! + size[a]!;
    for (let d = 0; d < 3; d++) cen[b * 3 + d] = cen[b * 3 + d]! + cen[a * 3 + d]!;
    count[b] = count[b]! + count[a]!;
    parent[a] = b;
    alive[a] = 0;
    aliveCount--;
  };
  const target = (a: number): number => {
    let best = -1, bc = -1;
    for (const [n, c] of adj[a]!) if (c > bc) { bc = c; best = n; }
    if (best >= 0) return best;
    let bd = Infinity; // no neighbour: the nearest centroid
    for (let j = 0; j < m; j++) {
      if (!alive[j] || j === a) continue;
      let d2 = 0;
      for (let d = 0; d < 3; d++) d2 += (cen[a * 3 + d]! / count[a]! - cen[j * 3 + d]! / count[j]!) ** 2;
      if (d2 < bd) { bd = d2; best = j; }
    }
    return best;
  };
  // Specks first (< 0.5% of the area, with a neighbour), smallest first; then surplus.
  const totalArea = size.reduce((s, x) => s + x, 0);
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => size[a]! - size[b]!);
  for (const a of order) {
    if (aliveCount <= k) break;
    if (size[a]! >= totalArea * 0.005) break;
    if (alive[a] && adj[a]!.size) merge(a, target(a));
  }
  while (aliveCount > k) {
    let a = -1;
    for (let j = 0; j < m; j++) if (alive[j] && (a < 0 || size[j]! < size[a]!)) a = j;
    merge(a, target(a));
  }
  const find = (i: number): number => { while (parent[i] !== i) i = parent[i]!; return i; };
  const ids = Array.from({ length: m }, (_, i) => i).filter((i) => alive[i]).sort((a, b) => size[b]! - size[a]!);
  const rank = new Int32Array(m).fill(-1);
  ids.forEach((id, i) => (rank[id] = i));
  const labels = new Int32Array(nf);
  for (let f = 0; f < nf; f++) labels[f] = rank[find(comp[f]!)]!;
  splitUntil(labels, feat, k, ids.length);
  return labels;
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
    labels.forEach((l, f) => { if (l === big) xs.push(feat[f * D]!); });
    xs.sort((a, b) => a - b);
    const med = xs[Math.floor(xs.length / 2)]!;
    let moved = 0;
    labels.forEach((l, f) => { if (l === big && feat[f * D]! >= med && moved < xs.length - 1) { labels[f] = next; moved++; } });
  }
}

const COLORS: [number, number, number][] = [
  [0.8, 0.15, 0.1], [0.1, 0.4, 0.8], [0.15, 0.65, 0.2], [0.9, 0.7, 0.1], [0.5, 0.2, 0.7],
  [0.1, 0.7, 0.7], [0.9, 0.35, 0.6], [0.45, 0.3, 0.15], [0.95, 0.45, 0.05], [0.3, 0.3, 0.3],
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
    const f = (k: number) => { const x = (k + h * 6) % 6; return 0.85 - 0.6 * Math.max(0, Math.min(x, 4 - x, 1)); };
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
    const pos: number[] = [], idx: number[] = [];
    for (let f = 0; f < labels.length; f++) {
      if (labels[f] !== r) continue;
      for (let e = 0; e < 3; e++) {
        const v = indices[f * 3 + e]!;
        if (remap[v] === -1) { remap[v] = pos.length / 3; pos.push(positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!); }
        idx.push(remap[v]!);
      }
    }
    if (!idx.length) continue;
    const p = new Float32Array(pos), ind = new Uint32Array(idx);
    parts.push({ name: `segment_${r + 1}`, positions: p, indices: ind, normals: vertexNormals(p, ind), material: segmentMaterial(r) });
  }
  return { parts };
}
