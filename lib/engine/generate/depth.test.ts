import { describe, expect, it } from "vitest";
import { decodeImage } from "./image-input";
import { blur121, depthFromImage, median3, reliefScene } from "./depth";
import { maskBounds } from "./mask-ops";
import { checkManifold, meshBounds, signedVolume } from "./mesh-ops";
import { fixture, synthImage } from "./testing";

const gradient = (w: number, h: number) => synthImage(w, h, [0, 0, 0], (x) => {
  const v = Math.round((x / (w - 1)) * 255);
  return [v, v, v];
});

describe("filters", () => {
  it("median3 equals a sorted 3x3 median", () => {
    const w = 19, h = 13;
    const src = Float32Array.from({ length: w * h }, (_, i) => Math.sin(i * 12.9898) * 43758.5453 % 1);
    const out = median3(src, w, h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const v: number[] = [];
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        v.push(src[Math.min(h - 1, Math.max(0, y + dy)) * w + Math.min(w - 1, Math.max(0, x + dx))]!);
      }
      v.sort((a, b) => a - b);
      expect(out[y * w + x]).toBe(Math.fround(v[4]!));
    }
  });

  it("median3 removes salt noise and blur121 keeps the mean", () => {
    const img = new Float32Array(100).fill(0.5);
    img[55] = 1;
    expect(median3(img, 10, 10)[55]).toBe(0.5);
    const b = Float32Array.from({ length: 100 }, (_, i) => i % 7);
    const mean = b.reduce((s, x) => s + x, 0) / 100;
    blur121(b, 10, 10);
    expect(b.reduce((s, x) => s + x, 0) / 100).toBeCloseTo(mean, 1);
  });
});

describe("depthFromImage", () => {
  it("is brighter where the image is brighter, spanning 0..1", () => {
    const d = depthFromImage(gradient(64, 32), { rmbg: false, tolerance: 0.02, invert: false });
    for (let y = 2; y < 30; y += 7) {
      for (let x = 1; x < 64; x++) expect(d.gray[y * 64 + x]!).toBeGreaterThanOrEqual(d.gray[y * 64 + x - 1]!);
      expect(d.gray[y * 64 + 60]!).toBeGreaterThan(d.gray[y * 64 + 4]! + 0.8);
    }
    expect(Math.max(...d.gray)).toBeCloseTo(1, 2);
    expect(Math.min(...d.gray)).toBeCloseTo(0, 2);
  });

  it("engrave inverts", () => {
    const d = depthFromImage(gradient(64, 32), { rmbg: false, tolerance: 0.02, invert: true });
    expect(d.gray[16 * 64 + 60]!).toBeLessThan(d.gray[16 * 64 + 4]! - 0.8);
  });

  it("rmbg isolates the subject: background depth is 0", async () => {
    const img = await decodeImage(fixture("teapot.png"), { maxSide: 512 });
    const d = depthFromImage(img, { rmbg: true, tolerance: 0.02, invert: false });
    expect(d.mask).not.toBeNull();
    expect(d.gray[0]).toBe(0);
    expect(d.gray[d.gray.length - 1]).toBe(0);
    expect(d.mask![(img.height >> 1) * img.width + (img.width >> 1)]).toBe(1);
  });
});

describe("reliefScene", () => {
  const depth = depthFromImage(gradient(300, 200), { rmbg: false, tolerance: 0.02, invert: false });

  it("is a closed plate `width` mm wide with base + relief height", () => {
    const s = reliefScene(depth, { widthMm: 40, reliefMm: 1.3, baseMm: 1, shape: 0 });
    const p = s.parts[0]!;
    expect(checkManifold(p.indices)).toMatchObject({ closed: true, oriented: true });
    expect(signedVolume(p.positions, p.indices)).toBeGreaterThan(0);
    const b = meshBounds(p.positions);
    expect(b.max[0] - b.min[0]).toBeCloseTo(40, 4);
    expect(b.max[2] - b.min[2]).toBeCloseTo(40 * (200 / 300), 0);
    expect(b.min[1]).toBeCloseTo(0, 5);
    expect(b.max[1]).toBeGreaterThan(2.2);
    expect(b.max[1]).toBeLessThanOrEqual(2.3 + 1e-4);
    // Higher where the image is brighter (+X).
    let left = 0, right = 0;
    for (let i = 0; i < p.positions.length; i += 3) {
      if (p.positions[i]! < -15) left = Math.max(left, p.positions[i + 1]!);
      if (p.positions[i]! > 15) right = Math.max(right, p.positions[i + 1]!);
    }
    expect(right).toBeGreaterThan(left + 0.8);
  });

  it("circle base: the outline lies on a circle of diameter `width`", () => {
    const s = reliefScene(depth, { widthMm: 60, reliefMm: 2, baseMm: 1.5, shape: 1 });
    const p = s.parts[0]!;
    expect(checkManifold(p.indices).closed).toBe(true);
    const b = meshBounds(p.positions);
    expect(b.max[0] - b.min[0]).toBeCloseTo(60, 3);
    expect(b.max[2] - b.min[2]).toBeCloseTo(60, 0);
    let maxR = 0;
    for (let i = 0; i < p.positions.length; i += 3) maxR = Math.max(maxR, Math.hypot(p.positions[i]!, p.positions[i + 2]!));
    expect(maxR).toBeCloseTo(30, 1);
  });

  it("with rmbg follows the subject's outline", async () => {
    const img = await decodeImage(fixture("teapot.png"), { maxSide: 512 });
    const d = depthFromImage(img, { rmbg: true, tolerance: 0.02, invert: false });
    const s = reliefScene(d, { widthMm: 80, reliefMm: 3, baseMm: 1, shape: 0 });
    const p = s.parts[0]!;
    expect(checkManifold(p.indices).closed).toBe(true);
    const b = meshBounds(p.positions);
    expect(b.max[0] - b.min[0]).toBeCloseTo(80, 3);
    // The outline's proportions, not the square frame's.
    const mb = maskBounds(d.mask!, d.width, d.height)!;
    const aspect = (mb.y1 - mb.y0 + 1) / (mb.x1 - mb.x0 + 1);
    expect(Math.abs((b.max[2] - b.min[2]) / 80 / aspect - 1)).toBeLessThan(0.04);
    expect(signedVolume(p.positions, p.indices)).toBeGreaterThan(0);
  });
});
