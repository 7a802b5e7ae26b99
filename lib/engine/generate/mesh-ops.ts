/**
 * Small indexed-mesh utilities shared by the generators: bounds, volume, normals,
 * welding, winding, Taubin smoothing and a closed/two-manifold check.
 */
import type { MeshPart, Scene } from "@/lib/engine/mesh/types";

export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

export function meshBounds(positions: Float32Array, into?: Bounds): Bounds {
  const b: Bounds = into ?? { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
  for (let i = 0; i < positions.length; i += 3) {
    for (let c = 0; c < 3; c++) {
      const v = positions[i + c]!;
      if (v < b.min[c]!) b.min[c] = v;
      if (v > b.max[c]!) b.max[c] = v;
    }
  }
  return b;
}

export function sceneBounds(scene: Scene): Bounds {
  const b: Bounds = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
  for (const p of scene.parts) meshBounds(p.positions, b);
  return b;
}

/** Signed volume (positive for a closed, outward-oriented mesh). */
export function signedVolume(positions: Float32Array, indices: Uint32Array): number {
  let v = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3,
      b = indices[t + 1]! * 3,
      c = indices[t + 2]! * 3;
    const ax = positions[a]!,
      ay = positions[a + 1]!,
      az = positions[a + 2]!;
    const bx = positions[b]!,
      by = positions[b + 1]!,
      bz = positions[b + 2]!;
    const cx = positions[c]!,
      cy = positions[c + 1]!,
      cz = positions[c + 2]!;
    v += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
  }
  return v / 6;
}

export function sceneVolume(scene: Scene): number {
  return scene.parts.reduce((s, p) => s + signedVolume(p.positions, p.indices), 0);
}

/** Reverses every triangle (use after a mirroring transform). In place. */
export function flipWinding(indices: Uint32Array): Uint32Array {
  for (let t = 0; t < indices.length; t += 3) {
    const b = indices[t + 1]!;
    indices[t + 1] = indices[t + 2]!;
    indices[t + 2] = b;
  }
  return indices;
}

/** Area-weighted unit vertex normals. */
export function vertexNormals(positions: Float32Array, indices: Uint32Array): Float32Array {
  const n = new Float32Array(positions.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3,
      b = indices[t + 1]! * 3,
      c = indices[t + 2]! * 3;
    const ux = positions[b]! - positions[a]!,
      uy = positions[b + 1]! - positions[a + 1]!,
      uz = positions[b + 2]! - positions[a + 2]!;
    const vx = positions[c]! - positions[a]!,
      vy = positions[c + 1]! - positions[a + 1]!,
      vz = positions[c + 2]! - positions[a + 2]!;
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    for (const i of [a, b, c]) {
      n[i] = n[i]! + nx;
      n[i + 1] = n[i + 1]! + ny;
      n[i + 2] = n[i + 2]! + nz;
    }
  }
  for (let i = 0; i < n.length; i += 3) {
    const l = Math.hypot(n[i]!, n[i + 1]!, n[i + 2]!) || 1;
    n[i] = n[i]! / l;
    n[i + 1] = n[i + 1]! / l;
    n[i + 2] = n[i + 2]! / l;
  }
  return n;
}

export interface WeldedMesh {
  positions: Float32Array;
  indices: Uint32Array;
}

/**
 * Merges all parts into one mesh and welds vertices that quantise to the same cell of a
 * grid `eps` times the model size (so seams split by uv or normal become shared).
 * Degenerate triangles are dropped.
 */
export function weldScene(scene: Scene, eps = 1e-5): WeldedMesh {
  const total = scene.parts.reduce((n, p) => n + p.positions.length / 3, 0);
  const remap = new Uint32Array(total);
  const out: number[] = [];
  const map = new Map<number, number>();
  const b = sceneBounds(scene);
  const size = Math.max(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2], 1e-9);
  // Quantised coordinates (< 2^17 levels each) packed exactly into one double.
  const levels = Math.min(131_071, Math.round(1 / Math.max(eps, 1 / 131_071)));
  const q = levels / size;
  let base = 0;
  for (const part of scene.parts) {
    const p = part.positions;
    for (let i = 0; i < p.length / 3; i++) {
      const qx = Math.round((p[i * 3]! - b.min[0]) * q),
        qy = Math.round((p[i * 3 + 1]! - b.min[1]) * q),
        qz = Math.round((p[i * 3 + 2]! - b.min[2]) * q);
      const key = (qx * 131_072 + qy) * 131_072 + qz;
      let id = map.get(key);
      if (id === undefined) {
        id = out.length / 3;
        map.set(key, id);
        out.push(p[i * 3]!, p[i * 3 + 1]!, p[i * 3 + 2]!);
      }
      remap[base + i] = id;
    }
    base += p.length / 3;
  }
  const tris: number[] = [];
  base = 0;
  for (const part of scene.parts) {
    for (let t = 0; t < part.indices.length; t += 3) {
      const a = remap[base + part.indices[t]!]!,
        c1 = remap[base + part.indices[t + 1]!]!,
        c2 = remap[base + part.indices[t + 2]!]!;
      if (a !== c1 && c1 !== c2 && a !== c2) tris.push(a, c1, c2);
    }
    base += part.positions.length / 3;
  }
  return { positions: new Float32Array(out), indices: new Uint32Array(tris) };
}

export interface ManifoldReport {
  /** Every undirected edge is used by exactly two triangles. */
  closed: boolean;
  /** The two uses of every edge run in opposite directions. */
  oriented: boolean;
  /** Edges used by one triangle / by more than two. */
  boundaryEdges: number;
  nonManifoldEdges: number;
}

/** Edge-based closed / two-manifold / orientation check of an indexed mesh. */
export function checkManifold(indices: Uint32Array): ManifoldReport {
  // Directed edge counts keyed by (min, max); +1 for min->max, +1000000 for max->min.
  const counts = new Map<number, number>();
  let maxV = 0;
  for (let i = 0; i < indices.length; i++) maxV = Math.max(maxV, indices[i]!);
  const stride = maxV + 1;
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e]!,
        b = indices[t + ((e + 1) % 3)]!;
      const key = Math.min(a, b) * stride + Math.max(a, b);
      counts.set(key, (counts.get(key) ?? 0) + (a < b ? 1 : 1_000_000));
    }
  }
  let boundaryEdges = 0,
    nonManifoldEdges = 0,
    misoriented = 0;
  for (const c of counts.values()) {
    const fwd = c % 1_000_000,
      back = Math.floor(c / 1_000_000);
    const uses = fwd + back;
    if (uses === 1) boundaryEdges++;
    else if (uses > 2) nonManifoldEdges++;
    else if (fwd !== 1 || back !== 1) misoriented++;
  }
  return { closed: boundaryEdges === 0 && nonManifoldEdges === 0, oriented: misoriented === 0, boundaryEdges, nonManifoldEdges };
}

/** Vertex adjacency (CSR) from triangle edges. */
export function vertexNeighbours(vertexCount: number, indices: Uint32Array): { offsets: Uint32Array; list: Uint32Array } {
  const deg = new Uint32Array(vertexCount + 1);
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) deg[indices[t + e]!]! += 2;
  }
  const offsets = new Uint32Array(vertexCount + 1);
  for (let v = 0; v < vertexCount; v++) offsets[v + 1] = offsets[v]! + deg[v]!;
  const fill = offsets.slice(0, vertexCount);
  const list = new Uint32Array(offsets[vertexCount]!);
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e]!,
        b = indices[t + ((e + 1) % 3)]!,
        c = indices[t + ((e + 2) % 3)]!;
      list[fill[a]!++] = b;
      list[fill[a]!++] = c;
    }
  }
  return { offsets, list };
}

/** Taubin (lambda / mu) smoothing: removes stair-steps without shrinking. In place. */
export function taubinSmooth(positions: Float32Array, indices: Uint32Array, iterations: number, lambda = 0.5, mu = -0.53): void {
  const nv = positions.length / 3;
  const { offsets, list } = vertexNeighbours(nv, indices);
  const tmp = new Float32Array(positions.length);
  for (let it = 0; it < iterations * 2; it++) {
    const f = it % 2 === 0 ? lambda : mu;
    for (let v = 0; v < nv; v++) {
      const s = offsets[v]!,
        e = offsets[v + 1]!;
      if (e === s) {
        tmp[v * 3] = positions[v * 3]!;
        tmp[v * 3 + 1] = positions[v * 3 + 1]!;
        tmp[v * 3 + 2] = positions[v * 3 + 2]!;
        continue;
      }
      let x = 0,
        y = 0,
        z = 0;
      for (let k = s; k < e; k++) {
        const u = list[k]! * 3;
        x += positions[u]!;
        y += positions[u + 1]!;
        z += positions[u + 2]!;
      }
      const inv = 1 / (e - s);
      for (let c = 0; c < 3; c++) {
        const p = positions[v * 3 + c]!;
        tmp[v * 3 + c] = p + f * ((c === 0 ? x : c === 1 ? y : z) * inv - p);
      }
    }
    positions.set(tmp);
  }
}

/** A part with positions/indices only plus freshly computed normals. */
export function plainPart(name: string, positions: Float32Array, indices: Uint32Array): MeshPart {
  return { name, positions, indices, normals: vertexNormals(positions, indices) };
}
