// Multi-view image-to-3D follows every view: seen from each side, the result's silhouette is that
// view's mask (IoU >= 0.8 once both are fitted to their bounds), while a result made from the
// front alone does not match the side view.
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { View } from "@/lib/x3d/options";
import { loadView, sceneFromViews, type LoadedView } from "./image-to-3d";
import { tempDir } from "@/test/harness/temp-dir";

const dir = tempDir("multi-view");

const N = 64;

/** A grey shape on a white backdrop, as a PNG file. */
async function shapeImage(name: string, inside: (x: number, y: number) => boolean, size = 256): Promise<string> {
  const px = Buffer.alloc(size * size * 3, 255);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) if (inside(x / size, y / size)) px.fill(90, (y * size + x) * 3, (y * size + x) * 3 + 3);
  const file = path.join(dir, `${name}.png`);
  await sharp(px, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toFile(file);
  return file;
}

/** A mask cropped to its bounds and resampled to N x N (nearest), rows top to bottom. */
function fitMask(mask: Uint8Array, w: number, h: number): Uint8Array {
  let x0 = w,
    y0 = h,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (mask[y * w + x]) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
  const out = new Uint8Array(N * N);
  for (let v = 0; v < N; v++)
    for (let u = 0; u < N; u++) {
      const x = Math.min(x1, Math.floor(x0 + ((u + 0.5) / N) * (x1 - x0 + 1)));
      const y = Math.min(y1, Math.floor(y0 + ((v + 0.5) / N) * (y1 - y0 + 1)));
      out[v * N + u] = mask[y * w + x] ? 1 : 0;
    }
  return out;
}

/** The mesh's silhouette along one axis (dropped), fitted to its bounds: N x N, rows top (high y) to bottom. */
function silhouette(positions: Float32Array, indices: Uint32Array, drop: 0 | 2): Uint8Array {
  const h = drop === 0 ? 2 : 0; // the horizontal world axis
  let u0 = Infinity,
    u1 = -Infinity,
    v0 = Infinity,
    v1 = -Infinity;
  for (let i = 0; i < positions.length; i += 3) {
    u0 = Math.min(u0, positions[i + h]!);
    u1 = Math.max(u1, positions[i + h]!);
    v0 = Math.min(v0, positions[i + 1]!);
    v1 = Math.max(v1, positions[i + 1]!);
  }
  const out = new Uint8Array(N * N);
  const gx = (u: number) => ((u - u0) / (u1 - u0)) * N;
  const gy = (v: number) => ((v1 - v) / (v1 - v0)) * N;
  for (let t = 0; t < indices.length; t += 3) {
    const p = [0, 1, 2].map((k) => [gx(positions[indices[t + k]! * 3 + h]!), gy(positions[indices[t + k]! * 3 + 1]!)] as const);
    const [a, b, c] = p as [readonly [number, number], readonly [number, number], readonly [number, number]];
    const area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    if (Math.abs(area) < 1e-12) continue;
    const minX = Math.max(0, Math.floor(Math.min(a[0], b[0], c[0]))),
      maxX = Math.min(N - 1, Math.ceil(Math.max(a[0], b[0], c[0])));
    const minY = Math.max(0, Math.floor(Math.min(a[1], b[1], c[1]))),
      maxY = Math.min(N - 1, Math.ceil(Math.max(a[1], b[1], c[1])));
    for (let y = minY; y <= maxY; y++)
      for (let x = minX; x <= maxX; x++) {
        const px = x + 0.5,
          py = y + 0.5;
        const w0 = ((b[0] - px) * (c[1] - py) - (b[1] - py) * (c[0] - px)) / area;
        const w1 = ((c[0] - px) * (a[1] - py) - (c[1] - py) * (a[0] - px)) / area;
        if (w0 >= 0 && w1 >= 0 && w0 + w1 <= 1) out[y * N + x] = 1;
      }
  }
  return out;
}

const mirror = (m: Uint8Array) => m.map((_, i) => m[Math.floor(i / N) * N + (N - 1 - (i % N))]!);

/** Intersection over union, the better of the two horizontal orientations (a side may be seen from either hand). */
function iou(a: Uint8Array, b: Uint8Array): number {
  const one = (q: Uint8Array) => {
    let both = 0,
      either = 0;
    for (let i = 0; i < a.length; i++) {
      if (a[i] && q[i]) both++;
      if (a[i] || q[i]) either++;
    }
    return both / either;
  };
  return Math.max(one(b), one(mirror(b)));
}

const fitted = (v: LoadedView) => fitMask(v.mask, v.image.width, v.image.height);

describe("multi-view image-to-3D follows each view", () => {
  it("front and left views of different shapes: each side's silhouette matches its view; the front alone does not give the left", async () => {
    // Front: a tall T. Left: a triangle pointing up (a profile no front-only inflation makes).
    const front = await shapeImage(
      "front",
      (x, y) => (y > 0.15 && y < 0.35 && x > 0.2 && x < 0.8) || (y >= 0.35 && y < 0.9 && x > 0.42 && x < 0.58),
    );
    const left = await shapeImage("left", (x, y) => y > 0.15 && y < 0.9 && Math.abs(x - 0.5) < ((y - 0.15) / 0.75) * 0.35);
    const views = await Promise.all(
      (
        [
          ["front", front],
          ["left", left],
        ] as [View, string][]
      ).map(([view, file]) => loadView(view, file, 256, true)),
    );
    const opts = { cells: 96, face: 100_000, textured: false, pbr: false, shading: 0 };
    const both = (await sceneFromViews(views, opts)).parts[0]!;
    const frontOnly = (await sceneFromViews([views[0]!], opts)).parts[0]!;

    const fromFront = iou(silhouette(both.positions, both.indices, 2), fitted(views[0]!));
    const fromLeft = iou(silhouette(both.positions, both.indices, 0), fitted(views[1]!));
    const singleFromLeft = iou(silhouette(frontOnly.positions, frontOnly.indices, 0), fitted(views[1]!));
    console.log(
      `IoU front ${fromFront.toFixed(3)}, left ${fromLeft.toFixed(3)}, front-only seen from the left ${singleFromLeft.toFixed(3)}`,
    );
    expect(fromFront).toBeGreaterThanOrEqual(0.8);
    expect(fromLeft).toBeGreaterThanOrEqual(0.8);
    expect(singleFromLeft).toBeLessThan(0.8);
  });

  it("a right view is followed too (a disc profile), and a back view narrows what the front shows", async () => {
    const front = await shapeImage(
      "front2",
      (x, y) => (y > 0.15 && y < 0.35 && x > 0.2 && x < 0.8) || (y >= 0.35 && y < 0.9 && x > 0.42 && x < 0.58),
    );
    const right = await shapeImage("right", (x, y) => (x - 0.5) ** 2 + (y - 0.52) ** 2 < 0.37 ** 2);
    // The back shows only the T's stem, full height: seen from the front, the result is the stem.
    const back = await shapeImage("back", (x, y) => y > 0.15 && y < 0.9 && x > 0.42 && x < 0.58);
    const load = (pairs: [View, string][]) => Promise.all(pairs.map(([view, file]) => loadView(view, file, 256, true)));
    const opts = { cells: 96, face: 100_000, textured: false, pbr: false, shading: 0 };

    const [f, r] = await load([
      ["front", front],
      ["right", right],
    ]);
    const withRight = (await sceneFromViews([f!, r!], opts)).parts[0]!;
    expect(iou(silhouette(withRight.positions, withRight.indices, 0), fitted(r!))).toBeGreaterThanOrEqual(0.8);

    const [f2, b] = await load([
      ["front", front],
      ["back", back],
    ]);
    const withBack = (await sceneFromViews([f2!, b!], opts)).parts[0]!;
    const seen = silhouette(withBack.positions, withBack.indices, 2);
    expect(iou(seen, fitted(b!))).toBeGreaterThanOrEqual(0.8);
    expect(iou(seen, fitted(f2!))).toBeLessThan(0.8);
  });
});
