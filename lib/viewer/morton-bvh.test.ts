import { describe, expect, it } from "vitest";
import { LEAF_SIZE, mortonIndex } from "./morton-bvh";
import { bumpySphere } from "./mesh-index.test-helpers";

const LEAF = 0xffff;

interface Node {
  at: number;
  box: number[];
  leaf: boolean;
  offset: number;
  count: number;
  axis: number;
  left: number;
  right: number;
}

/** Reads the packed nodes of three-mesh-bvh's layout (8 uint32 a node). */
function nodesOf(root: ArrayBuffer): Node[] {
  const f32 = new Float32Array(root),
    u32 = new Uint32Array(root),
    u16 = new Uint16Array(root);
  return Array.from({ length: root.byteLength / 32 }, (_, i) => {
    const o = i * 8;
    const leaf = u16[o * 2 + 15] === LEAF;
    return {
      at: i,
      box: Array.from(f32.subarray(o, o + 6)),
      leaf,
      offset: leaf ? u32[o + 6]! : -1,
      count: leaf ? u16[o * 2 + 14]! : -1,
      axis: leaf ? -1 : u32[o + 7]!,
      left: leaf ? -1 : i + 1,
      right: leaf ? -1 : i + u32[o + 6]!,
    };
  });
}

function corners(positions: Float32Array, indices: Uint32Array, t: number): number[][] {
  return [0, 1, 2].map((k) => {
    const v = indices[t * 3 + k]! * 3;
    return [positions[v]!, positions[v + 1]!, positions[v + 2]!];
  });
}

const inside = (inner: number[], outer: number[]) => [0, 1, 2].every((k) => inner[k]! >= outer[k]! && inner[k + 3]! <= outer[k + 3]!);

describe("mortonIndex", () => {
  const { positions, indices } = bumpySphere(50, 3);
  const n = indices.length / 3;
  const { roots, order } = mortonIndex(positions, indices);
  const nodes = nodesOf(roots[0]!);

  it("orders every triangle once, in leaves of at most 8 whose boxes hold their corners", () => {
    expect(roots).toHaveLength(1);
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    const leaves = nodes.filter((x) => x.leaf);
    expect(leaves.reduce((sum, x) => sum + x.count, 0)).toBe(n);
    for (const leaf of leaves) {
      expect(leaf.count).toBeGreaterThan(0);
      expect(leaf.count).toBeLessThanOrEqual(LEAF_SIZE);
      for (let k = leaf.offset; k < leaf.offset + leaf.count; k++)
        for (const c of corners(positions, indices, order[k]!)) expect(inside([...c, ...c], leaf.box)).toBe(true);
    }
  });

  it("lays the tree out depth first: left child next, right child after the left subtree, every node reached once", () => {
    const reached = new Array<number>(nodes.length).fill(0);
    /** The places a subtree covers, checked to be one run from `from`. */
    const walk = (i: number, from: number): number => {
      reached[i]!++;
      const node = nodes[i]!;
      if (node.leaf) {
        expect(node.offset).toBe(from);
        return from + node.count;
      }
      const mid = walk(node.left, from);
      // The right child comes right after the left subtree's last node.
      expect(node.right).toBe(node.left + subtreeSize(node.left));
      return walk(node.right, mid);
    };
    const subtreeSize = (i: number): number => (nodes[i]!.leaf ? 1 : 1 + subtreeSize(nodes[i]!.left) + subtreeSize(nodes[i]!.right));
    expect(walk(0, 0)).toBe(n);
    expect(reached.every((r) => r === 1)).toBe(true);
  });

  it("bounds each inner node by its children, split on the axis its children's centres are apart", () => {
    // The centre of the triangle's box, as the codes take it.
    const centre = (t: number, axis: number) => {
      const c = corners(positions, indices, t).map((x) => x[axis]!);
      return Math.min(...c) + Math.max(...c);
    };
    const centres = (i: number): number[] => {
      const node = nodes[i]!;
      if (node.leaf) return Array.from(order.subarray(node.offset, node.offset + node.count));
      return [...centres(node.left), ...centres(node.right)];
    };
    let splits = 0;
    for (const node of nodes) {
      if (node.leaf) continue;
      const [l, r] = [nodes[node.left]!, nodes[node.right]!];
      expect(inside(l.box, node.box) && inside(r.box, node.box)).toBe(true);
      // The node's box is no bigger than its children's.
      for (let k = 0; k < 3; k++) {
        expect(node.box[k]).toBe(Math.min(l.box[k]!, r.box[k]!));
        expect(node.box[k + 3]).toBe(Math.max(l.box[k + 3]!, r.box[k + 3]!));
      }
      const lo = Math.max(...centres(node.left).map((t) => centre(t, node.axis)));
      const hi = Math.min(...centres(node.right).map((t) => centre(t, node.axis)));
      if (lo <= hi) splits++;
    }
    // Morton splits put the lower cells left: only splits of equal codes (by count) may interleave.
    expect(splits).toBe(nodes.filter((x) => !x.leaf).length);
  });

  it("splits triangles with one centre by count, and keeps an empty model one empty leaf", () => {
    const same = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const many = new Uint32Array(Array.from({ length: 40 }, () => [0, 1, 2]).flat());
    const tree = nodesOf(mortonIndex(same, many).roots[0]!);
    expect(tree.filter((x) => x.leaf).map((x) => x.count)).toEqual([5, 5, 5, 5, 5, 5, 5, 5]);
    const empty = nodesOf(mortonIndex(new Float32Array(0), new Uint32Array(0)).roots[0]!);
    expect(empty).toEqual([{ at: 0, box: [0, 0, 0, 0, 0, 0], leaf: true, offset: 0, count: 0, axis: -1, left: -1, right: -1 }]);
  });

  it("keeps a NaN corner out of the boxes", () => {
    const p = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, NaN, 5, 5]);
    const tree = nodesOf(mortonIndex(p, new Uint32Array([0, 1, 2, 0, 1, 3])).roots[0]!);
    // x from the finite corners only; y and z reach the NaN corner's 5.
    expect(tree[0]!.box).toEqual([0, 0, 0, 1, 5, 5]);
  });
});
