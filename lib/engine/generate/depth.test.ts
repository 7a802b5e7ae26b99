import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { writeBmp, writeExr, writePng } from "@/lib/engine/formats/raster";
import type { MeshPart } from "@/lib/engine/mesh/types";
import { decodeImage } from "./image-input";
import { PRO_TRIANGLES, depthFromImage, depthSizeFor, median3, reliefScene, reliefTolerance } from "./depth";
import { subjectMask } from "./depth-mask";
import { euler, vertexManifold } from "./depth.test-helpers";
import { countSet, maskBounds } from "./mask-ops";
import { checkManifold, meshBounds, signedVolume } from "./mesh-ops";
import { fixture, synthImage } from "./generate.test-helpers";

const gradient = (w: number, h: number) =>
  synthImage(w, h, [0, 0, 0], (x) => {
    const v = Math.round((x / (w - 1)) * 255);
    return [v, v, v];
  });

/** Background colour and concentric rings at normalised RGB distances 0.6 / 0.35 / 0.18 / 0.08 from it. */
const BG: [number, number, number] = [20, 30, 40];
const RINGS = [
  [20, 0.6],
  [40, 0.35],
  [60, 0.18],
  [80, 0.08],
] as const;
const ringsImage = (hole = 0) =>
  synthImage(200, 200, BG, (x, y) => {
    const r = Math.hypot(x + 0.5 - 100, y + 0.5 - 100);
    if (r < hole) return null;
    for (const [radius, d] of RINGS) {
      if (r < radius) {
        const o = Math.round(d * 255);
        return [BG[0] + o, BG[1] + o, BG[2] + o];
      }
    }
    return null;
  });

interface ReliefReport {
  bottomArea: number;
  volume: number;
}

/**
 * Watertight solid checks in the output frame (Y up): closed, consistently oriented,
 * two-manifold at every vertex, positive volume; the bottom (Y = 0) faces down, the top
 * faces up and covers the bottom's outline exactly once (no fold-overs), walls are vertical.
 */
function checkRelief(part: MeshPart, shells = 2): ReliefReport {
  const { positions: p, indices: idx } = part;
  expect(checkManifold(idx)).toMatchObject({ closed: true, oriented: true, boundaryEdges: 0, nonManifoldEdges: 0 });
  expect(vertexManifold(idx, p.length / 3)).toBe(true);
  expect(euler(idx)).toBe(shells);
  const volume = signedVolume(p, idx);
  expect(volume).toBeGreaterThan(0);
  let bottom = 0,
    top = 0,
    topAbs = 0,
    wallPlan = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t]! * 3,
      b = idx[t + 1]! * 3,
      c = idx[t + 2]! * 3;
    // Y component of the normal = twice the signed area projected on the ground (X, Z), seen from +Y.
    const ny = (p[c]! - p[a]!) * (p[b + 2]! - p[a + 2]!) - (p[b]! - p[a]!) * (p[c + 2]! - p[a + 2]!);
    const ys = [p[a + 1]!, p[b + 1]!, p[c + 1]!];
    if (ys.every((y) => y === 0)) {
      expect(ny).toBeLessThan(0);
      bottom -= ny / 2;
    } else if (ys.some((y) => y === 0)) wallPlan += Math.abs(ny / 2);
    else {
      top += ny / 2;
      topAbs += Math.abs(ny / 2);
    }
  }
  expect(Math.abs(top / bottom - 1)).toBeLessThan(1e-4);
  expect(Math.abs(topAbs / bottom - 1)).toBeLessThan(1e-4);
  expect(wallPlan / bottom).toBeLessThan(1e-5);
  return { bottomArea: bottom, volume };
}

/** Max Y of the vertices whose X lies in [x0, x1]. */
function maxHeight(part: MeshPart, x0: number, x1: number, lowest = false): number {
  let m = lowest ? Infinity : -Infinity;
  for (let i = 0; i < part.positions.length; i += 3) {
    const x = part.positions[i]!,
      y = part.positions[i + 1]!;
    if (x < x0 || x > x1 || y === 0) continue;
    m = lowest ? Math.min(m, y) : Math.max(m, y);
  }
  return m;
}

/** Vertices of the wall triangles (those spanning Y = 0 and Y > 0): the outline. */
function outlineVertices(part: MeshPart): Set<number> {
  const out = new Set<number>();
  const { positions: p, indices: idx } = part;
  for (let t = 0; t < idx.length; t += 3) {
    const vs = [idx[t]!, idx[t + 1]!, idx[t + 2]!];
    const zero = vs.filter((v) => p[v * 3 + 1] === 0).length;
    if (zero === 1 || zero === 2) vs.forEach((v) => out.add(v));
  }
  return out;
}

/** Mean height of the top vertices at a distance r0..r1 from the Y axis. */
function bandHeight(part: MeshPart, r0: number, r1: number): number {
  let s = 0,
    n = 0;
  for (let i = 0; i < part.positions.length; i += 3) {
    const r = Math.hypot(part.positions[i]!, part.positions[i + 2]!),
      y = part.positions[i + 1]!;
    if (r >= r0 && r <= r1 && y > 0) {
      s += y;
      n++;
    }
  }
  return s / n;
}

describe("median3", () => {
  it("equals a sorted 3x3 median and removes salt noise", () => {
    const w = 19,
      h = 13;
    const src = Float32Array.from({ length: w * h }, (_, i) => (Math.sin(i * 12.9898) * 43758.5453) % 1);
    const out = median3(src, w, h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const v: number[] = [];
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            v.push(src[Math.min(h - 1, Math.max(0, y + dy)) * w + Math.min(w - 1, Math.max(0, x + dx))]!);
          }
        v.sort((a, b) => a - b);
        expect(out[y * w + x]).toBe(Math.fround(v[4]!));
      }
    const salt = new Float32Array(100).fill(0.5);
    salt[55] = 1;
    expect(median3(salt, 10, 10)[55]).toBe(0.5);
  });
});

describe("depthFromImage", () => {
  it("is brighter where the image is brighter, spanning 0..1", () => {
    const d = depthFromImage(gradient(64, 32), { rmbg: false, tolerance: 0.02, invert: false });
    for (let y = 2; y < 30; y += 7) {
      for (let x = 1; x < 64; x++) expect(d.gray[y * 64 + x]!).toBeGreaterThanOrEqual(d.gray[y * 64 + x - 1]! - 1e-6);
      expect(d.gray[y * 64 + 60]!).toBeGreaterThan(d.gray[y * 64 + 4]! + 0.8);
    }
    expect(Math.max(...d.gray)).toBeCloseTo(1, 2);
    expect(Math.min(...d.gray)).toBeCloseTo(0, 2);
  });

  it("engrave inverts inside the subject, background stays 0", () => {
    const img = ringsImage();
    const e = depthFromImage(img, { rmbg: true, tolerance: 0.02, invert: false });
    const g = depthFromImage(img, { rmbg: true, tolerance: 0.02, invert: true });
    for (let p = 0; p < e.gray.length; p++) {
      if (e.mask![p]) expect(g.gray[p]!).toBeCloseTo(1 - e.gray[p]!, 5);
      else expect([e.gray[p], g.gray[p]]).toEqual([0, 0]);
    }
    expect(e.gray[100 * 200 + 100]).toBeCloseTo(1, 3); // the brightest ring, centre
    expect(g.gray[100 * 200 + 100]).toBeCloseTo(0, 3);
  });

  it("rmbg isolates the subject of a photo: background depth is 0", async () => {
    const img = await decodeImage(fixture("teapot.png"), { maxSide: 512 });
    const d = depthFromImage(img, { rmbg: true, tolerance: 0.02, invert: false });
    expect(d.mask).not.toBeNull();
    expect(d.gray[0]).toBe(0);
    expect(d.gray[d.gray.length - 1]).toBe(0);
    expect(d.mask![(img.height >> 1) * img.width + (img.width >> 1)]).toBe(1);
    const share = countSet(d.mask!) / d.mask!.length;
    expect(share).toBeGreaterThan(0.1);
    expect(share).toBeLessThan(0.8);
  });
});

describe("subjectMask (rmbg, degree_rmbg)", () => {
  it("a higher degree removes more: rings go as the tolerance passes their colour distance", () => {
    const img = ringsImage();
    const area = (deg: number) => countSet(subjectMask(img, deg));
    const disc = (r: number) => {
      let n = 0;
      for (let y = 0; y < 200; y++) for (let x = 0; x < 200; x++) if (Math.hypot(x + 0.5 - 100, y + 0.5 - 100) < r) n++;
      return n;
    };
    expect(area(0.02)).toBe(disc(80)); // only the backdrop
    expect(area(0.1)).toBe(disc(60)); // + the 0.08 ring
    expect(area(0.2)).toBe(disc(40)); // + the 0.18 ring
    expect(area(0.4)).toBe(disc(20)); // + the 0.35 ring
    let prev = Infinity;
    for (let deg = 0; deg <= 1.0001; deg += 0.05) {
      const a = area(deg);
      expect(a).toBeLessThanOrEqual(prev);
      expect(a).toBeGreaterThanOrEqual(disc(20)); // never everything: the last subject stays
      prev = a;
    }
  });

  it("uses the border's colour statistics: noisy backdrops need no extra degree", () => {
    let s = 5;
    const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647 - 0.5;
    const img = synthImage(160, 120, [0, 0, 0], (x, y) => {
      if (Math.hypot(x - 80, y - 60) < 30) return [220, 60, 60];
      const n = Math.round(rnd() * 24);
      return [120 + n, 140 + n, 160 + n];
    });
    const m = subjectMask(img, 0.02);
    const b = maskBounds(m, 160, 120)!;
    const expected = [51, 109, 31, 89]; // the disc |(x, y) - (80, 60)| < 30
    [b.x0, b.x1, b.y0, b.y1].forEach((v, i) => expect(Math.abs(v - expected[i]!)).toBeLessThanOrEqual(1));
    expect(Math.abs(countSet(m) / (Math.PI * 900) - 1)).toBeLessThan(0.05);
  });
});

describe("reliefScene", () => {
  const depth = depthFromImage(gradient(300, 200), { rmbg: false, tolerance: 0.02, invert: false });

  it("square plate: exactly `width` mm wide and thickness_base + height_relief high, watertight", () => {
    const s = reliefScene(depth, { widthMm: 40, reliefMm: 1.3, baseMm: 1, shape: 0 });
    const p = s.parts[0]!;
    const r = checkRelief(p);
    const b = meshBounds(p.positions);
    expect(b.max[0] - b.min[0]).toBeCloseTo(40, 5);
    expect(b.max[2] - b.min[2]).toBeCloseTo(40 * (200 / 300), 5);
    expect(b.min[1]).toBe(0);
    expect(b.max[1]).toBeCloseTo(2.3, 5);
    expect(r.bottomArea).toBeCloseTo(40 * 40 * (200 / 300), 2);
    // A ramp: the mean height is base + relief / 2.
    expect(r.volume / r.bottomArea).toBeCloseTo(1 + 1.3 / 2, 1);
    // Higher where the image is brighter (+X).
    expect(maxHeight(p, 15, 20)).toBeGreaterThan(maxHeight(p, -20, -15) + 0.8);
  });

  it("emboss raises and engrave carves, to the exact heights", () => {
    // Bright left half, dark right half.
    const img = synthImage(240, 160, [40, 40, 40], (x) => (x < 120 ? [220, 220, 220] : null));
    for (const invert of [false, true]) {
      const d = depthFromImage(img, { rmbg: false, tolerance: 0.02, invert });
      const p = reliefScene(d, { widthMm: 60, reliefMm: 2.5, baseMm: 1.5, shape: 0 }).parts[0]!;
      checkRelief(p);
      const high = 1.5 + 2.5,
        low = 1.5;
      const [bright, dark] = [
        [-28, -2],
        [2, 28],
      ] as const;
      const brightMax = maxHeight(p, ...bright),
        brightMin = maxHeight(p, ...bright, true);
      const darkMax = maxHeight(p, ...dark),
        darkMin = maxHeight(p, ...dark, true);
      if (!invert) {
        expect([brightMin, brightMax, darkMin, darkMax].map((v) => +v.toFixed(5))).toEqual([high, high, low, low]);
      } else {
        expect([brightMin, brightMax, darkMin, darkMax].map((v) => +v.toFixed(5))).toEqual([low, low, high, high]);
      }
    }
  });

  it("circle base: the outline is a circle of diameter `width`", () => {
    for (const invert of [false, true]) {
      const d = depthFromImage(gradient(300, 200), { rmbg: false, tolerance: 0.02, invert });
      const p = reliefScene(d, { widthMm: 60, reliefMm: 2, baseMm: 1.5, shape: 1 }).parts[0]!;
      const r = checkRelief(p);
      const b = meshBounds(p.positions);
      expect(b.max[0] - b.min[0]).toBeCloseTo(60, 4);
      expect(b.max[2] - b.min[2]).toBeCloseTo(60, 4);
      expect([b.min[1], +b.max[1].toFixed(5)]).toEqual([0, 3.5]);
      // Outline vertices (those of the walls): projected from the cell staircase onto the
      // circle, except staircase corners whose move would fold a triangle over: those stay
      // up to a cell (60 / 200 mm here, 0.03% of the diameter at 2K) inside. None outside.
      const rim = [...outlineVertices(p)].map((v) => Math.hypot(p.positions[v * 3]!, p.positions[v * 3 + 2]!));
      let maxR = 0;
      for (let i = 0; i < p.positions.length; i += 3) maxR = Math.max(maxR, Math.hypot(p.positions[i]!, p.positions[i + 2]!));
      expect(maxR).toBeLessThanOrEqual(30 + 1e-4);
      expect(Math.min(...rim)).toBeGreaterThan(30 - 60 / 200);
      expect(rim.filter((x) => Math.abs(x - 30) < 1e-4).length / rim.length).toBeGreaterThan(0.5);
      // Every direction reaches the circle.
      const bins = new Set<number>();
      for (let i = 0; i < p.positions.length; i += 3) {
        if (Math.abs(Math.hypot(p.positions[i]!, p.positions[i + 2]!) - 30) < 1e-4)
          bins.add(Math.floor((Math.atan2(p.positions[i + 2]!, p.positions[i]!) + Math.PI) / (Math.PI / 36)) % 72);
      }
      expect(bins.size).toBe(72);
      expect(Math.abs(r.bottomArea / (Math.PI * 900) - 1)).toBeLessThan(0.005);
    }
  });

  it("rmbg: follows the subject outline, holes included, on a thickness_base backing", () => {
    const img = ringsImage(10); // an annulus subject: hole of radius 10 px
    for (const invert of [false, true]) {
      const d = depthFromImage(img, { rmbg: true, tolerance: 0.02, invert });
      const p = reliefScene(d, { widthMm: 80, reliefMm: 3, baseMm: 1, shape: 1 }).parts[0]!;
      const r = checkRelief(p, 0); // one shell with one hole: a torus
      const b = meshBounds(p.positions);
      expect(b.max[0] - b.min[0]).toBeCloseTo(80, 4);
      expect([b.min[1], +b.max[1].toFixed(5)]).toEqual([0, 4]);
      // Annulus 10..80 px over a 160 px wide subject, scaled to 80 mm: area pi (40^2 - 5^2).
      expect(Math.abs(r.bottomArea / (Math.PI * (1600 - 25)) - 1)).toBeLessThan(0.02);
      // Emboss: the bright centre ring is the highest; engrave: the lowest (carved).
      const inner = bandHeight(p, 6, 9),
        outer = bandHeight(p, 32, 38);
      if (!invert) expect(inner).toBeGreaterThan(outer + 2);
      else expect(inner).toBeLessThan(outer - 2);
      expect(maxHeight(p, -40, 40, true)).toBeGreaterThanOrEqual(1 - 1e-6);
    }
  });

  it("rmbg on a photo (teapot, 1K): outline proportions, watertight", async () => {
    const img = await decodeImage(fixture("teapot.png"), { maxSide: depthSizeFor("base"), enlarge: true });
    const d = depthFromImage(img, { rmbg: true, tolerance: 0.02, invert: false });
    const p = reliefScene(d, { widthMm: 80, reliefMm: 3, baseMm: 1, shape: 0 }).parts[0]!;
    checkRelief(p, euler(p.indices)); // shells / holes as the photo has them
    const m = checkManifold(p.indices);
    expect(m.closed && m.oriented).toBe(true);
    const b = meshBounds(p.positions);
    expect(b.max[0] - b.min[0]).toBeCloseTo(80, 4);
    expect(+b.max[1].toFixed(5)).toBe(4);
    const mb = maskBounds(d.mask!, d.width, d.height)!;
    const aspect = (mb.y1 - mb.y0 + 1) / (mb.x1 - mb.x0 + 1);
    expect(Math.abs((b.max[2] - b.min[2]) / 80 / aspect - 1)).toBeLessThan(0.01);
  });

  it("pro 2K: one cell per pixel, adaptive, within the triangle budget", async () => {
    const img = await decodeImage(fixture("chair.png"), { maxSide: depthSizeFor("pro"), enlarge: true });
    expect(Math.max(img.width, img.height)).toBe(2048);
    const d = depthFromImage(img, { rmbg: false, tolerance: 0.02, invert: false });
    const p = reliefScene(d, { widthMm: 40, reliefMm: 1.3, baseMm: 1, shape: 0 }).parts[0]!;
    checkRelief(p);
    const tris = p.indices.length / 3;
    // A plain 2048 x 2048 grid solid would have 16.8M triangles.
    const walls = 2 * 2 * (d.width + d.height);
    expect(tris).toBeLessThan(PRO_TRIANGLES + walls + 60_000);
    expect(tris).toBeGreaterThan(50_000);
    expect(reliefTolerance(1.3)).toBeCloseTo(0.0052, 6);
    // Budget and tolerance options reach the mesh.
    const small = reliefScene(d, { widthMm: 40, reliefMm: 1.3, baseMm: 1, shape: 0, maxTriangles: 20_000 }).parts[0]!;
    checkRelief(small);
    expect(small.indices.length / 3).toBeLessThan(20_000 + walls + 60_000);
  }, 60_000);
});

describe("depth maps", () => {
  it("base 1K / pro 2K: 16-bit PNG, float EXR and BMP hold the depth", async () => {
    for (const modelType of ["base", "pro"] as const) {
      const img = await decodeImage(fixture("robot.png"), { maxSide: depthSizeFor(modelType), enlarge: true });
      const d = depthFromImage(img, { rmbg: true, tolerance: 0.02, invert: false });
      expect(Math.max(d.width, d.height)).toBe(modelType === "pro" ? 2048 : 1024);
      const png = await writePng(d);
      const meta = await sharp(png).metadata();
      expect([meta.format, meta.width, meta.height, meta.depth, meta.channels]).toEqual(["png", d.width, d.height, "ushort", 1]);
      const raw = await sharp(png).toColourspace("grey16").raw({ depth: "ushort" }).toBuffer();
      const u16 = new Uint16Array(raw.buffer, raw.byteOffset, raw.byteLength / 2);
      let worst = 0;
      for (let p = 0; p < d.gray.length; p += 97) worst = Math.max(worst, Math.abs(u16[p]! / 65535 - d.gray[p]!));
      expect(worst).toBeLessThanOrEqual(0.5 / 65535 + 1e-7);
      // More than 256 levels are used (a real 16-bit map, not 8-bit scaled up).
      const levels = new Set<number>();
      for (let p = 0; p < u16.length; p++) levels.add(u16[p]!);
      expect(levels.size).toBeGreaterThan(1000);

      const exr = await writeExr(d.width, d.height, d.gray);
      const v = new DataView(exr.buffer, exr.byteOffset, exr.byteLength);
      expect(v.getUint32(0, true)).toBe(20000630);
      const firstBlock = Number(v.getBigUint64(exr.length - d.height * (8 + d.width * 4) - d.height * 8, true));
      const y = v.getInt32(firstBlock, true);
      expect(y).toBe(0);
      for (let x = 0; x < d.width; x += 31) expect(v.getFloat32(firstBlock + 8 + x * 4, true)).toBe(d.gray[x]);

      const bmp = await writeBmp(d);
      const bv = new DataView(bmp.buffer, bmp.byteOffset, bmp.byteLength);
      expect([bv.getInt32(18, true), bv.getInt32(22, true), bv.getUint16(28, true)]).toEqual([d.width, d.height, 24]);
      const row = Math.ceil((d.width * 3) / 4) * 4,
        mid = d.height >> 1;
      for (let x = 0; x < d.width; x += 13) {
        expect(bmp[54 + (d.height - 1 - mid) * row + x * 3]).toBe(Math.round(d.gray[mid * d.width + x]! * 255));
      }
    }
  }, 60_000);
});
