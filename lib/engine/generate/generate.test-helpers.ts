/** Shared helpers for this folder's tests (synthetic meshes, images, fixture paths). */
import { fileURLToPath } from "node:url";
import type { MeshPart, Scene } from "@/lib/engine/mesh/types";
import type { DecodedImage } from "./image-input";

export const fixture = (name: string): string => fileURLToPath(new URL(`../../../test/fixtures/${name}`, import.meta.url));

/** A closed UV sphere (poles shared), outward CCW. */
export function uvSphere(radius: number, rings = 24, segments = 48, centre: [number, number, number] = [0, 0, 0]): MeshPart {
  const pos: number[] = [centre[0], centre[1] + radius, centre[2]];
  for (let r = 1; r < rings; r++) {
    const th = (Math.PI * r) / rings;
    for (let s = 0; s < segments; s++) {
      const ph = (2 * Math.PI * s) / segments;
      pos.push(
        centre[0] + radius * Math.sin(th) * Math.cos(ph),
        centre[1] + radius * Math.cos(th),
        centre[2] + radius * Math.sin(th) * Math.sin(ph),
      );
    }
  }
  pos.push(centre[0], centre[1] - radius, centre[2]);
  const south = pos.length / 3 - 1;
  const ring = (r: number, s: number) => 1 + (r - 1) * segments + (s % segments);
  const idx: number[] = [];
  for (let s = 0; s < segments; s++) idx.push(0, ring(1, s + 1), ring(1, s));
  for (let r = 1; r < rings - 1; r++) {
    for (let s = 0; s < segments; s++) {
      idx.push(ring(r, s), ring(r, s + 1), ring(r + 1, s + 1), ring(r, s), ring(r + 1, s + 1), ring(r + 1, s));
    }
  }
  for (let s = 0; s < segments; s++) idx.push(south, ring(rings - 1, s), ring(rings - 1, s + 1));
  return { name: "sphere", positions: new Float32Array(pos), indices: new Uint32Array(idx) };
}

/** An axis-aligned closed box, outward CCW. */
export function box(min: [number, number, number], max: [number, number, number]): MeshPart {
  const pos: number[] = [];
  for (let i = 0; i < 8; i++) pos.push(i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]);
  const idx = [0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5];
  return { name: "box", positions: new Float32Array(pos), indices: new Uint32Array(idx) };
}

export const sceneOf = (...parts: MeshPart[]): Scene => ({ parts });

/** An RGBA image filled with `bg`, with `paint(x, y)` returning a colour or null. */
export function synthImage(
  w: number,
  h: number,
  bg: [number, number, number],
  paint: (x: number, y: number) => [number, number, number] | null,
): DecodedImage {
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = paint(x, y) ?? bg;
      data.set([c[0], c[1], c[2], 255], (y * w + x) * 4);
    }
  }
  return { width: w, height: h, data, hasAlpha: false };
}

/** A binary disc mask. */
export function discMask(n: number, radius: number): Uint8Array {
  const m = new Uint8Array(n * n);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) m[y * n + x] = (x + 0.5 - n / 2) ** 2 + (y + 0.5 - n / 2) ** 2 <= radius * radius ? 1 : 0;
  return m;
}

/** An n x m grid of unit squares in z = 0, square (i, j) = faces 2 (j n + i) and 2 (j n + i) + 1. */
export function unitGrid(n: number, m: number) {
  const pos: number[] = [],
    idx: number[] = [];
  for (let j = 0; j <= m; j++) for (let i = 0; i <= n; i++) pos.push(i, j, 0);
  for (let j = 0; j < m; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      idx.push(a, a + 1, a + n + 2, a, a + n + 2, a + n + 1);
    }
  }
  return { positions: new Float32Array(pos), indices: new Uint32Array(idx) };
}
