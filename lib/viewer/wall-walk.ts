/**
 * The thin-wall search in WebAssembly (assembly/wall-walk.ts, 128-bit SIMD): about 2.7× faster
 * than wall-thickness.ts's walk at 2M triangles, with walls equal bit for bit. This file lays out
 * the module's memory: the model's index (a three-mesh-bvh tree, two children a node) turned
 * into a four-wide tree whose four boxes one SIMD test checks, widened by 2^-18 of the model's
 * largest coordinate so that the float32 tests never leave out a box a ray meets; per place of
 * the index's order its triangle's normal and corners; the vertices; each place's leaf. Browsers
 * without WebAssembly SIMD (Safari before 16.4) get no search here and use the walk in JavaScript.
 */
import type { MeshBVH } from "three-mesh-bvh";
import { writeFaceNormal } from "./face-normals";
import type { MeshInput } from "./mesh-analysis";
import { meshIndexData } from "./mesh-index";
import { WALL_WALK_WASM } from "./wall-walk.wasm";

/** three-mesh-bvh's node: 8 uint32, a leaf marked 0xFFFF at uint16 15 (see morton-bvh.ts). */
const NODE = 8;
const LEAF = 0xffff;
/** assembly/wall-walk.ts's layout: a node of 128 bytes (32 words), a place of 24 bytes (6 words). */
const NODE_WORDS = 32;
const PLACE_WORDS = 6;
const EMPTY = 0x7fffffff;
const STACK_BYTES = 64 * 1024;
/** Where the layout starts (the module keeps no data of its own: the first kilobyte is spare). */
const BASE = 1024;
/** How much the boxes grow, as a share of the model's largest coordinate (float32 rounds at 2^-24). */
const WIDEN = 2 ** -18;

interface WallWalk {
  setup(nodes: number, places: number, positions: number, homes: number, out: number, stack: number, eps: number): void;
  walls(from: number, to: number, maxDistance: number): void;
}

let compiled: WebAssembly.Module | null | undefined;

/** The compiled module, or null where WebAssembly or its SIMD is missing. */
function wallWalkModule(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  compiled = null;
  if (typeof WebAssembly === "undefined") return compiled;
  const bytes = Uint8Array.from(atob(WALL_WALK_WASM), (c) => c.charCodeAt(0));
  if (WebAssembly.validate(bytes)) compiled = new WebAssembly.Module(bytes);
  return compiled;
}

const align = (x: number) => Math.ceil(x / 16) * 16;

/** Whether this runtime runs the search in WebAssembly (it has WebAssembly's SIMD). */
export function wallWalkInWasm(): boolean {
  return wallWalkModule() !== null;
}

/**
 * The wall search of `input` through `index` in WebAssembly, or null when this runtime cannot
 * run it (`module` null), the index has more than one root or leaves too large for the module's
 * layout (not built by morton-bvh.ts), or its memory cannot be had.
 */
export function wasmWallSearch(
  input: MeshInput,
  index: MeshBVH,
  module = wallWalkModule(),
): ((maxDistance: number, from: number, to: number) => Float32Array) | null {
  const { roots, order } = meshIndexData(index);
  const root = roots[0];
  if (!module || !root || roots.length !== 1) return null;
  const f32 = new Float32Array(root),
    u32 = new Uint32Array(root),
    u16 = new Uint16Array(root);
  const n = order.length;
  const { positions, indices } = input;
  // A four-wide node takes the place of one to three inner nodes of the index: no more than it has.
  const wide = Math.floor(root.byteLength / 32 / 2) + 1;
  const nodesAt = BASE;
  const placesAt = align(nodesAt + wide * NODE_WORDS * 4);
  const positionsAt = align(placesAt + n * PLACE_WORDS * 4);
  const homesAt = align(positionsAt + positions.length * 4);
  const outAt = align(homesAt + n * 4);
  const stackAt = align(outAt + n * 4);
  // Leaves of more than 15 places or past 2^27 do not fit a child's 32 bits: walked in JavaScript.
  for (let o = 0; o < u32.length; o += NODE)
    if (u16[o * 2 + 15] === LEAF && ((u16[o * 2 + 14] ?? 0) > 15 || (u32[o + 6] ?? 0) >= 2 ** 27)) return null;
  let memory: WebAssembly.Memory;
  try {
    memory = new WebAssembly.Memory({ initial: Math.ceil((stackAt + STACK_BYTES) / 65536) });
  } catch {
    // No room for it (a huge model on a small device): the walk in JavaScript needs none.
    return null;
  }
  const F = new Float32Array(memory.buffer),
    I = new Int32Array(memory.buffer);

  let largest = 0;
  for (let k = 0; k < 6; k++) largest = Math.max(largest, Math.abs(f32[k] ?? 0));
  const grow = largest * WIDEN + 1e-30;
  const area = (o: number) => {
    const x = (f32[o + 3] ?? 0) - (f32[o] ?? 0),
      y = (f32[o + 4] ?? 0) - (f32[o + 1] ?? 0),
      z = (f32[o + 5] ?? 0) - (f32[o + 2] ?? 0);
    return x * y + y * z + z * x;
  };
  // Depth first from the root: (index node, parent's number, slot in the parent) to write; a
  // tree of 2^32 triangles is at most 64 levels deep, each leaving three entries at most.
  const todo = new Int32Array(3 * 4 * 64);
  let top = 3;
  todo[1] = -1;
  // The node's children (index nodes) and their boxes' areas (-1 for a leaf).
  const kids = new Int32Array(4),
    areas = new Float64Array(4);
  let size = 0;
  const add = (k: number) => {
    kids[size] = k;
    areas[size++] = u16[k * 2 + 15] === LEAF ? -1 : area(k);
  };
  let count = 0;
  while (top > 0) {
    top -= 3;
    const o = todo[top] ?? 0,
      parent = todo[top + 1] ?? -1,
      slotOf = todo[top + 2] ?? 0;
    const w = count++;
    const base = (nodesAt >> 2) + w * NODE_WORDS;
    I[base + 28] = parent;
    I[base + 29] = slotOf;
    if (parent >= 0) I[(nodesAt >> 2) + parent * NODE_WORDS + 24 + slotOf] = w;
    // The node's two children, the largest inner one opened until there are four.
    size = 0;
    if (u16[o * 2 + 15] === LEAF) add(o);
    else {
      add(o + NODE);
      add(o + (u32[o + 6] ?? 0) * NODE);
    }
    while (size < 4) {
      let open = -1;
      for (let i = 0; i < size; i++) if ((areas[i] ?? -1) >= 0 && (open < 0 || (areas[i] ?? 0) > (areas[open] ?? 0))) open = i;
      if (open < 0) break;
      const k = kids[open] ?? 0;
      // Its first child takes its slot, its second goes last.
      size--;
      const last = kids[size] ?? 0,
        lastArea = areas[size] ?? -1;
      if (open !== size) {
        kids[open] = last;
        areas[open] = lastArea;
      }
      add(k + NODE);
      add(k + (u32[k + 6] ?? 0) * NODE);
    }
    for (let s = 0; s < 4; s++) {
      if (s >= size) {
        // An empty slot: a box no ray enters.
        for (let a = 0; a < 3; a++) {
          F[base + a * 4 + s] = Infinity;
          F[base + 12 + a * 4 + s] = -Infinity;
        }
        I[base + 24 + s] = EMPTY;
        continue;
      }
      const k = kids[s] ?? 0;
      for (let a = 0; a < 3; a++) {
        F[base + a * 4 + s] = (f32[k + a] ?? 0) - grow;
        F[base + 12 + a * 4 + s] = (f32[k + 3 + a] ?? 0) + grow;
      }
      if ((areas[s] ?? -1) < 0) {
        const start = u32[k + 6] ?? 0,
          places = u16[k * 2 + 14] ?? 0;
        I[base + 24 + s] = ~((start << 4) | places);
        I.fill((w << 2) | s, (homesAt >> 2) + start, (homesAt >> 2) + start + places);
      } else {
        todo[top] = k;
        todo[top + 1] = w;
        todo[top + 2] = s;
        top += 3;
      }
    }
  }
  // Per place: its triangle's unit normal (as faceNormals writes it) and its corners' vertex numbers.
  const P = placesAt >> 2;
  for (let q = 0; q < n; q++) {
    const t = order[q] ?? 0,
      at = P + q * PLACE_WORDS;
    const i0 = indices[t * 3] ?? 0,
      i1 = indices[t * 3 + 1] ?? 0,
      i2 = indices[t * 3 + 2] ?? 0;
    writeFaceNormal(positions, i0, i1, i2, F, at);
    I[at + 3] = i0;
    I[at + 4] = i1;
    I[at + 5] = i2;
  }
  F.set(positions, positionsAt >> 2);
  const extent = Math.max((f32[3] ?? 0) - (f32[0] ?? 0), (f32[4] ?? 0) - (f32[1] ?? 0), (f32[5] ?? 0) - (f32[2] ?? 0));
  const walk = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as WallWalk;
  walk.setup(nodesAt, placesAt, positionsAt, homesAt, outAt, stackAt, 1e-6 * extent);
  return (maxDistance, from, to) => {
    const first = Math.max(0, Math.min(n, from)),
      end = Math.max(first, Math.min(n, to));
    if (first === end || !(maxDistance > 0)) return new Float32Array(end - first).fill(Infinity);
    walk.walls(first, end, maxDistance);
    return new Float32Array(memory.buffer, outAt, end - first).slice();
  };
}
