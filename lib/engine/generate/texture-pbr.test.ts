// PBR maps pinned on tiny tiles: the normal of a known luma slope (k = NORMAL_STRENGTH), flat normals
// wherever the 3x3 neighbourhood leaves the subject, the plain roughness BASE_ROUGHNESS, and the gloss
// of one white highlight texel worked out from the smoothing weights.
import { describe, expect, it } from "vitest";
import { BASE_ROUGHNESS, NORMAL_STRENGTH, pbrMaps } from "./texture-pbr";

/** w x h RGBA tile from per-texel RGB. */
function tile(w: number, h: number, at: (x: number, y: number) => [number, number, number]): Uint8Array {
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out.set([...at(x, y), 255], (y * w + x) * 4);
  return out;
}
const texel = (a: Uint8Array, w: number, x: number, y: number) => Array.from(a.subarray((y * w + x) * 4, (y * w + x) * 4 + 4));
const FLAT = [128, 128, 255, 255];
/** Expected normal bytes of n = normalise(nx, ny, 1). */
const normalBytes = (nx: number, ny: number) => {
  const inv = 1 / Math.sqrt(nx * nx + ny * ny + 1);
  return [Math.round((nx * inv * 0.5 + 0.5) * 255), Math.round((ny * inv * 0.5 + 0.5) * 255), Math.round((inv * 0.5 + 0.5) * 255), 255];
};
/**
 * The height map is the luma itself (0..1 per texel), smoothed. It was 9 x the luma until the
 * fix: boxBlur returns 3x3 sums, its two passes sum 81 texels, and the code divided by 9, so
 * bumps came out 9 x steeper than NORMAL_STRENGTH says.
 */
const HEIGHT_GAIN = 1;
const smoothstep = (a: number, b: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

describe("pbrMaps normals", () => {
  it("tilts a horizontal luma ramp to n = normalise(-k dY/dx, 0, 1), k = NORMAL_STRENGTH = 3", () => {
    expect(NORMAL_STRENGTH).toBe(3);
    // 9x9 grey ramp, bytes 20 x: luma slope 20/255 per texel. The radius-2 tent keeps a line where its window
    // is inside the tile (x, y in 2..6); Sobel / 8 then gives the slope: texels 3..5 both ways.
    const w = 9;
    const { normal } = pbrMaps(
      tile(w, w, (x) => [20 * x, 20 * x, 20 * x]),
      new Uint8Array(w * w).fill(1),
      w,
      w,
    );
    const want = normalBytes((-HEIGHT_GAIN * NORMAL_STRENGTH * 20) / 255, 0); // nx = -3 * 20 / 255 = -0.2353 -> [98, 128, 252]
    expect(want).toEqual([98, 128, 252, 255]);
    for (let y = 3; y <= 5; y++) for (let x = 3; x <= 5; x++) expect(texel(normal, w, x, y), `(${x},${y})`).toEqual(want);
    // The outer ring of texels never gets a normal.
    for (let i = 0; i < w; i++) {
      expect(texel(normal, w, i, 0)).toEqual(FLAT);
      expect(texel(normal, w, i, w - 1)).toEqual(FLAT);
      expect(texel(normal, w, 0, i)).toEqual(FLAT);
      expect(texel(normal, w, w - 1, i)).toEqual(FLAT);
    }
  });

  it("tilts a downward-brightening ramp to +Y (image y points down, normal Y up)", () => {
    const w = 9;
    const { normal } = pbrMaps(
      tile(w, w, (_x, y) => [20 * y, 20 * y, 20 * y]),
      new Uint8Array(w * w).fill(1),
      w,
      w,
    );
    const want = normalBytes(0, (HEIGHT_GAIN * NORMAL_STRENGTH * 20) / 255);
    expect(want).toEqual([128, 157, 252, 255]);
    for (let y = 3; y <= 5; y++) for (let x = 3; x <= 5; x++) expect(texel(normal, w, x, y), `(${x},${y})`).toEqual(want);
  });

  it("reads the height from Rec. 709 luma (red, green and blue ramps tilt by 0.2126, 0.7152, 0.0722)", () => {
    const w = 9;
    const all = new Uint8Array(w * w).fill(1);
    const ramps: [number, (x: number) => [number, number, number]][] = [
      [0.2126, (x) => [25 * x, 0, 0]],
      [0.7152, (x) => [0, 25 * x, 0]],
      [0.0722, (x) => [0, 0, 25 * x]],
    ];
    for (const [weight, at] of ramps) {
      const { normal } = pbrMaps(
        tile(w, w, (x) => at(x)),
        all,
        w,
        w,
      );
      expect(texel(normal, w, 4, 4), `luma weight ${weight}`).toEqual(normalBytes((-HEIGHT_GAIN * NORMAL_STRENGTH * weight * 25) / 255, 0));
    }
    // Red: 3 * 0.2126 * 25 / 255 = 0.0625 -> R 120; blue alone still tilts: 0.0212 -> R 125.
    expect(normalBytes((-HEIGHT_GAIN * NORMAL_STRENGTH * 0.2126 * 25) / 255, 0)[0]).toBe(120);
    expect(normalBytes((-HEIGHT_GAIN * NORMAL_STRENGTH * 0.0722 * 25) / 255, 0)[0]).toBe(125);
  });

  it("stays flat wherever the 3x3 neighbourhood (diagonals included) leaves the subject", () => {
    // 11x11 ramp with a hole at (5,5): its 8 neighbours stay flat; texels whose window misses it are tilted.
    const w = 11;
    const mask = new Uint8Array(w * w).fill(1);
    mask[5 * w + 5] = 0;
    const { normal } = pbrMaps(
      tile(w, w, (x) => [20 * x, 20 * x, 20 * x]),
      mask,
      w,
      w,
    );
    for (let y = 4; y <= 6; y++) for (let x = 4; x <= 6; x++) expect(texel(normal, w, x, y), `(${x},${y})`).toEqual(FLAT);
    const tilted = normalBytes((-HEIGHT_GAIN * NORMAL_STRENGTH * 20) / 255, 0);
    for (const [x, y] of [
      [3, 3],
      [3, 5],
      [7, 7],
      [5, 7],
      [7, 4],
    ] as const)
      expect(texel(normal, w, x, y), `(${x},${y})`).toEqual(tilted);
  });

  it("is flat everywhere on a tile one texel high or wide", () => {
    for (const [w, h] of [
      [4, 1],
      [1, 4],
      [2, 2],
    ] as const) {
      const { normal, metallicRoughness } = pbrMaps(
        tile(w, h, (x, y) => [60 * x + 40 * y, 0, 200]),
        new Uint8Array(w * h).fill(1),
        w,
        h,
      );
      for (let p = 0; p < w * h; p++) expect(Array.from(normal.subarray(p * 4, p * 4 + 4))).toEqual(FLAT);
      expect(metallicRoughness.length).toBe(w * h * 4);
    }
  });
});

describe("pbrMaps roughness and metallic", () => {
  // 0.7 stored as float32 (0.69999999) -> 178.4999 -> 178.
  const BASE = Math.round(Math.fround(BASE_ROUGHNESS) * 255);

  it("is BASE_ROUGHNESS and not metallic on a plain subject, bled to the background, glTF-packed (R, A = 255)", () => {
    expect(BASE_ROUGHNESS).toBe(0.7);
    expect(BASE).toBe(178);
    // 4x3 mid grey, subject the left two columns.
    const mask = new Uint8Array(12);
    for (const p of [0, 1, 4, 5, 8, 9]) mask[p] = 1;
    const { metallicRoughness } = pbrMaps(
      tile(4, 3, () => [120, 120, 120]),
      mask,
      4,
      3,
    );
    for (let p = 0; p < 12; p++)
      expect(Array.from(metallicRoughness.subarray(p * 4, p * 4 + 4)), `texel ${p}`).toEqual([255, BASE, 0, 255]);
  });

  it("is BASE_ROUGHNESS everywhere with an empty mask", () => {
    const { metallicRoughness, normal } = pbrMaps(
      tile(3, 3, (x) => [255 * (x & 1), 255, 255]),
      new Uint8Array(9),
      3,
      3,
    );
    for (let p = 0; p < 9; p++) {
      expect(Array.from(metallicRoughness.subarray(p * 4, p * 4 + 4))).toEqual([255, BASE, 0, 255]);
      expect(Array.from(normal.subarray(p * 4, p * 4 + 4))).toEqual(FLAT);
    }
  });

  it("makes a white highlight texel glossy around it: 0.7 - 0.6 min(1, 12 gloss), gloss its smoothed density", () => {
    // 5x5 grey (byte 77, luma Yg = 77/255) with a white centre; r1 = 2 (mean, 1 box pass), r2 = 3 (gloss, 2 passes).
    // Highlight: centre y = 1 exceeds its 5x5 mean (24 Yg + 1) / 25 by 0.67 (> 0.2), saturation 0, y > 0.6 -> 1; others 0.
    // Gloss weights along a 5-texel line with r2 = 3 (intermediate inside the tile): at x = 2 the texels weigh
    // [4, 5, 5, 5, 4] (sum 23), at x = 0 [4, 4, 4, 4, 3] (sum 19).
    // Centre: gloss = 5*5 / 23^2 = 0.047259 -> G = 0.56711 -> 0.7 - 0.34026 = 0.35974 -> 91.7 -> 92.
    // Corner: gloss = 4*4 / 19^2 = 0.044321 -> G = 0.53186 -> 0.38089 -> 97.1 -> 97; (2,0): 5*4 / (23*19) -> 94.
    const img = tile(5, 5, (x, y) => (x === 2 && y === 2 ? [255, 255, 255] : [77, 77, 77]));
    const { metallicRoughness: mr } = pbrMaps(img, new Uint8Array(25).fill(1), 5, 5);
    const rough = (gloss: number) => Math.round((0.7 - 0.6 * Math.min(1, 12 * gloss)) * 255);
    expect([rough(25 / 529), rough(16 / 361), rough(20 / 437)]).toEqual([92, 97, 94]);
    expect(texel(mr, 5, 2, 2)[1]).toBe(92);
    expect(texel(mr, 5, 0, 0)[1]).toBe(97);
    expect(texel(mr, 5, 4, 4)[1]).toBe(97);
    expect(texel(mr, 5, 2, 0)[1]).toBe(94);
    expect(texel(mr, 5, 1, 2)[1]).toBe(92); // x = 1 weighs [4, 5, 5, 5, 4] too
    // Metallic at the centre: smoothstep(0.5, 0.9, G) * (1 - 0) * smoothstep(0.2, 0.45, std / (mean + 0.05)) over the 5x5.
    const Yg = 77 / 255,
      m = (24 * Yg + 1) / 25,
      sd = Math.sqrt((24 * Yg * Yg + 1) / 25 - m * m);
    const metal = smoothstep(0.5, 0.9, 12 * (25 / 529)) * smoothstep(0.2, 0.45, sd / (m + 0.05));
    expect(Math.round(metal * 255)).toBe(13);
    expect(texel(mr, 5, 2, 2)[2]).toBe(13);
    // Corner: G = 12 * 16/361; its 3x3 mean window (0..2) holds the white texel: m = (8 Yg + 1) / 9.
    const mc = (8 * Yg + 1) / 9,
      sdc = Math.sqrt((8 * Yg * Yg + 1) / 9 - mc * mc);
    const metalCorner = smoothstep(0.5, 0.9, 12 * (16 / 361)) * smoothstep(0.2, 0.45, sdc / (mc + 0.05));
    expect(Math.round(metalCorner * 255)).toBe(5);
    expect(texel(mr, 5, 0, 0)[2]).toBe(5);
    expect(texel(mr, 5, 2, 2)[0]).toBe(255);
  });

  it("weighs a highlight by smoothstep(0.04, 0.2, excess over the mean) x smoothstep(0.35, 0.15, saturation) x smoothstep(0.5, 0.6, luma)", () => {
    // One highlight texel at the centre of 5x5 grey (byte 77): centre roughness = 0.7 - 0.6 * 12 * hl * 25/529.
    const Yg = 77 / 255;
    const rough = (hl: number) => Math.round((0.7 - 0.6 * 12 * hl * (25 / 529)) * 255);
    const cases: [string, [number, number, number], number, number][] = [];
    // Grey byte 140: luma 0.549 -> 0.485 of a highlight (the excess 0.96 (0.549 - Yg) = 0.24 and saturation 0 count fully).
    cases.push(["half bright", [140, 140, 140], smoothstep(0.5, 0.6, 140 / 255), 136]);
    // Pink (180, 140, 140): luma 0.582 -> 0.90; saturation 40/180 = 0.22 -> 0.70.
    const yPink = (0.2126 * 180 + 0.7152 * 140 + 0.0722 * 140) / 255;
    cases.push(["pink", [180, 140, 140], smoothstep(0.5, 0.6, yPink) * smoothstep(0.35, 0.15, 40 / 180), 123]);
    for (const [name, centre, hl, want] of cases) {
      expect(rough(hl), name).toBe(want);
      const { metallicRoughness: mr } = pbrMaps(
        tile(5, 5, (x, y) => (x === 2 && y === 2 ? centre : [77, 77, 77])),
        new Uint8Array(25).fill(1),
        5,
        5,
      );
      expect(texel(mr, 5, 2, 2)[1], name).toBe(want);
    }
    // Light grey 230 on 180: excess 0.96 * 50/255 = 0.188 -> 0.98 of a highlight (luma 0.90, grey).
    const hl = smoothstep(0.04, 0.2, (0.96 * 50) / 255);
    const { metallicRoughness: mr } = pbrMaps(
      tile(5, 5, (x, y) => (x === 2 && y === 2 ? [230, 230, 230] : [180, 180, 180])),
      new Uint8Array(25).fill(1),
      5,
      5,
    );
    expect(rough(hl)).toBe(93);
    expect(texel(mr, 5, 2, 2)[1]).toBe(93);
    expect(Yg).toBeLessThan(0.5);
  });

  it("is not glossy on a plain white surface: a highlight must stand out from its neighbourhood", () => {
    const { metallicRoughness: mr } = pbrMaps(
      tile(5, 5, () => [255, 255, 255]),
      new Uint8Array(25).fill(1),
      5,
      5,
    );
    for (let p = 0; p < 25; p++) expect(Array.from(mr.subarray(p * 4, p * 4 + 4))).toEqual([255, BASE, 0, 255]);
  });

  it("spreads gloss over 2 r2 texels, r2 = 2.5% of the longer side (4 at 161), along a row or a column", () => {
    // One white texel at 80 in a 161-texel grey line: gloss at distance d = #{m : |m - 80| <= 4, |m - 80 - d| <= 4} / 81.
    // d = 8 -> 1/81 -> G = 12/81 -> 0.7 - 0.0889 = 0.611 -> 156; d = 9 -> 0 -> 178.
    for (const [w, h] of [
      [161, 1],
      [1, 161],
    ] as const) {
      const { metallicRoughness: mr } = pbrMaps(
        tile(w, h, (x, y) => (x + y === 80 ? [255, 255, 255] : [77, 77, 77])),
        new Uint8Array(161).fill(1),
        w,
        h,
      );
      expect(mr[88 * 4 + 1], `${w}x${h} d=8`).toBe(156);
      expect(mr[72 * 4 + 1], `${w}x${h} d=-8`).toBe(156);
      expect(mr[89 * 4 + 1], `${w}x${h} d=9`).toBe(178);
      expect(mr[71 * 4 + 1], `${w}x${h} d=-9`).toBe(178);
    }
  });

  it("reads a 3x3 white patch on grey as polished metal (roughness 0.1, metallic 1), a coloured surround as not metal", () => {
    // Every white texel is a highlight; the smoothed density x 12 exceeds 1 everywhere -> G = 1 -> 0.1 -> 25.5 -> 26 or 25
    // (float32 0.1), metallic 1 (grey, std / mean > 0.45).
    const patch = (bg: [number, number, number]) => tile(5, 5, (x, y) => (x >= 1 && x <= 3 && y >= 1 && y <= 3 ? [255, 255, 255] : bg));
    const grey = pbrMaps(patch([77, 77, 77]), new Uint8Array(25).fill(1), 5, 5).metallicRoughness;
    const r01 = Math.round(Math.fround(0.7 - 0.6) * 255);
    for (let p = 0; p < 25; p++) expect(Array.from(grey.subarray(p * 4, p * 4 + 4)), `texel ${p}`).toEqual([255, r01, 255, 255]);
    // Red surround: saturation 1 on 16 of 25 texels -> neighbourhood saturation > 0.3 -> metallic 0; still glossy.
    const red = pbrMaps(patch([200, 0, 0]), new Uint8Array(25).fill(1), 5, 5).metallicRoughness;
    for (let p = 0; p < 25; p++) expect(Array.from(red.subarray(p * 4, p * 4 + 4)), `texel ${p}`).toEqual([255, r01, 0, 255]);
  });

  it("ignores bright texels that are saturated or dim", () => {
    const all = new Uint8Array(25).fill(1);
    const base = [255, 178, 0, 255];
    for (const [name, centre, bg] of [
      ["saturated yellow", [255, 255, 0], [77, 77, 77]],
      ["dim (luma 0.45)", [115, 115, 115], [20, 20, 20]],
    ] as const) {
      const { metallicRoughness: mr } = pbrMaps(
        tile(5, 5, (x, y) => (x === 2 && y === 2 ? [...centre] : [...bg])),
        all,
        5,
        5,
      );
      for (let p = 0; p < 25; p++) expect(Array.from(mr.subarray(p * 4, p * 4 + 4)), `${name} texel ${p}`).toEqual(base);
    }
  });
});
