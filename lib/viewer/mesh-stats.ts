/** Triangle and vertex counts of a three.js scene graph, as the viewer shows them. */
import type { BufferAttribute, InterleavedBufferAttribute, Mesh, Object3D } from "three";

export interface MeshStats {
  triangles: number;
  vertices: number;
}

type Positions = BufferAttribute | InterleavedBufferAttribute;

/** MurmurHash3's finaliser: float bits keep their low bits zero, so they need mixing. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * Distinct vertex positions (bit-exact) of an attribute. OBJ, STL, FBX, USD and 3MF
 * loaders hand back unindexed triangles (three corners each), so counting the attribute
 * would report three vertices per triangle instead of the model's own count.
 */
export function distinctPositions(attr: Positions): number {
  const n = attr.count;
  if (n === 0) return 0;
  const bits = new Uint32Array(n * 3);
  const f = new Float32Array(bits.buffer);
  for (let i = 0; i < n; i++) {
    // +0 turns -0 into 0, so the two compare equal as bits too.
    f[i * 3] = attr.getX(i) + 0;
    f[i * 3 + 1] = attr.getY(i) + 0;
    f[i * 3 + 2] = attr.getZ(i) + 0;
  }
  let size = 1;
  while (size < n * 2) size <<= 1;
  const table = new Int32Array(size).fill(-1);
  let distinct = 0;
  // Every read is in range (bits holds n * 3 words, slot is masked to the table's size); the
  // `??` values only satisfy the index type.
  for (let i = 0; i < n; i++) {
    const x = bits[i * 3] ?? 0,
      y = bits[i * 3 + 1] ?? 0,
      z = bits[i * 3 + 2] ?? 0;
    let slot = fmix(fmix(fmix(x) ^ y) ^ z) & (size - 1);
    for (;;) {
      const j = table[slot] ?? -1;
      if (j < 0) {
        table[slot] = i;
        distinct++;
        break;
      }
      if (bits[j * 3] === x && bits[j * 3 + 1] === y && bits[j * 3 + 2] === z) break;
      slot = (slot + 1) & (size - 1);
    }
  }
  return distinct;
}

/**
 * Counts triangles and vertices of every mesh under `root` (instanced meshes once per
 * instance); points and lines are not triangles and are skipped. Indexed geometry counts
 * its vertex attribute, as glTF tools do; unindexed geometry its distinct positions.
 */
export function countMeshStats(root: Object3D): MeshStats {
  let triangles = 0;
  let vertices = 0;
  root.traverse((node) => {
    // Flags, not instanceof: a second copy of three in a bundle would fail instanceof.
    if (!(node as Mesh).isMesh) return;
    const geometry = (node as Mesh).geometry;
    const position = geometry?.getAttribute("position");
    if (!position) return;
    const instances = "isInstancedMesh" in node && node.isInstancedMesh ? (node as unknown as { count: number }).count : 1;
    // drawRange can limit what is drawn; Infinity (the default) means "all".
    const indexed = geometry.index ? geometry.index.count : position.count;
    const drawn = Math.min(indexed, Math.max(0, geometry.drawRange.count));
    const start = Math.min(drawn, Math.max(0, geometry.drawRange.start));
    triangles += Math.floor((drawn - start) / 3) * instances;
    vertices += (geometry.index ? position.count : distinctPositions(position)) * instances;
  });
  return { triangles, vertices };
}

const number = new Intl.NumberFormat("en-US");

/** "12,345 triangles · 6,789 vertices" (singular for one). */
export function formatMeshStats({ triangles, vertices }: MeshStats): string {
  const t = `${number.format(triangles)} ${triangles === 1 ? "triangle" : "triangles"}`;
  const v = `${number.format(vertices)} ${vertices === 1 ? "vertex" : "vertices"}`;
  return `${t} · ${v}`;
}
