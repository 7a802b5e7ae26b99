// The image operations behind texture.ts pinned on tiny hand-made images: the sRGB curve at its
// knee, the push-pull fill's exact weighted values, erode's 4-neighbourhood, resampleCrop's tent
// taps, and de-shading flattening a gradient against a brute-force tent average.
import { describe, expect, it } from "vitest";
import type { DecodedImage } from "./image-input";
import {
  SRGB_TO_LINEAR,
  deshadeImage,
  deshadeLinear,
  deshadeRadius,
  erode,
  linearRgbToRgba,
  linearToSrgb,
  pushPullFill,
  resampleCrop,
  smoothFields,
} from "./texture-image";

const f32 = (a: number[]) => Float32Array.from(a);
const u8 = (a: number[]) => Uint8Array.from(a);
const near = (got: ArrayLike<number>, want: number[], digits = 6) => {
  expect(got.length).toBe(want.length);
  want.forEach((v, i) => expect(got[i]!, `index ${i}`).toBeCloseTo(v, digits));
};

describe("SRGB_TO_LINEAR", () => {
  it("is linear (c / 12.92) up to the knee at 0.04045 and the 2.4 power curve above it, 0 and 1 at the ends", () => {
    expect(SRGB_TO_LINEAR.length).toBe(256);
    expect(SRGB_TO_LINEAR[0]).toBe(0);
    expect(SRGB_TO_LINEAR[255]).toBe(1);
    // 1/255 and 10/255 = 0.0392 lie below the knee: c / 12.92.
    expect(SRGB_TO_LINEAR[1]).toBeCloseTo(1 / 255 / 12.92, 9);
    expect(SRGB_TO_LINEAR[10]).toBeCloseTo(10 / 255 / 12.92, 9); // 0.0030353
    // 11/255 = 0.0431 lies above it: ((c + 0.055) / 1.055)^2.4 = 0.0033465 (the line would give 0.0033388).
    expect(SRGB_TO_LINEAR[11]).toBeCloseTo(0.0033465358, 9);
    expect(SRGB_TO_LINEAR[128]).toBeCloseTo(0.2158605, 7);
    for (let i = 1; i < 256; i++) expect(SRGB_TO_LINEAR[i]!).toBeGreaterThan(SRGB_TO_LINEAR[i - 1]!);
  });
});

describe("linearToSrgb", () => {
  it("clamps to 0..255, rounds on a 4096-step table, and has the sRGB knee at 0.0031308", () => {
    expect([-1, 0, 1, 2].map(linearToSrgb)).toEqual([0, 0, 255, 255]);
    // Table index round(c * 4096): 0.4/4096 -> 0, 0.6/4096 -> 1; 1/4096 -> 12.92 / 4096 * 255 = 0.80 -> 1.
    expect([0.4 / 4096, 0.6 / 4096, 1 / 4096].map(linearToSrgb)).toEqual([0, 1, 1]);
    // Knee: 0.0031308 -> index 13 -> 1.055 (13/4096)^(1/2.4) - 0.055 = 0.0410 -> 10.46 -> 10.
    expect(linearToSrgb(0.0031308)).toBe(10);
    // 0.002 -> index 8 -> 8/4096 * 12.92 * 255 = 6.43 -> 6 (the power curve would give 12).
    expect(linearToSrgb(0.002)).toBe(6);
    // Mid values: 0.5 -> 0.7354 * 255 = 187.5 -> 188; 0.2 -> 0.4845 * 255 = 123.6 -> 124; 0.01 -> 25.
    expect([0.5, 0.2, 0.01].map(linearToSrgb)).toEqual([188, 124, 25]);
  });

  it("inverts SRGB_TO_LINEAR for every byte", () => {
    for (let i = 0; i < 256; i++) expect(linearToSrgb(SRGB_TO_LINEAR[i]!), `byte ${i}`).toBe(i);
  });
});

describe("linearRgbToRgba", () => {
  it("converts n interleaved RGB pixels to opaque RGBA, channel by channel, rounding like linearToSrgb", () => {
    const rgb = f32([0, 0.5, 1, -0.5, 2, 0.2, 0.0031308, 0.002, 0.6 / 4096, 0.4 / 4096, 0.01, 0.5]);
    const out = linearRgbToRgba(rgb, 3);
    expect(Array.from(out)).toEqual([0, 188, 255, 255, 0, 255, 124, 255, 10, 6, 1, 255]);
    // n limits the pixels converted.
    expect(Array.from(linearRgbToRgba(rgb, 1))).toEqual([0, 188, 255, 255]);
    for (let i = 0; i < 256; i++) expect(linearRgbToRgba(f32([SRGB_TO_LINEAR[i]!, 0, 0]), 1)[0]).toBe(i);
  });
});

describe("erode", () => {
  it("keeps the pixels whose 4 neighbours are all set (a plus keeps its centre, diagonals do not count)", () => {
    // 3x3 plus: the centre's 4 neighbours are set, its corners are not.
    expect(Array.from(erode(u8([0, 1, 0, 1, 1, 1, 0, 1, 0]), 3, 3))).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0]);
    // 5x4 full: the border ring goes, the 3x2 inside stays.
    const full = erode(new Uint8Array(20).fill(1), 5, 4);
    expect(Array.from(full)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
    // 5x5 full with a hole at the centre: the hole's 4 neighbours go, the inner corners stay.
    const holed = new Uint8Array(25).fill(1);
    holed[12] = 0;
    expect(Array.from(erode(holed, 5, 5))).toEqual([0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0]);
  });

  it("drops a pixel missing any one of its 4 neighbours", () => {
    // 5x5 full: pixel (2,2) survives; removing its left/right/up/down neighbour removes it.
    for (const [q, name] of [
      [11, "left"],
      [13, "right"],
      [7, "up"],
      [17, "down"],
    ] as const) {
      const m = new Uint8Array(25).fill(1);
      m[q] = 0;
      expect(erode(m, 5, 5)[12], name).toBe(0);
    }
    const m = new Uint8Array(25).fill(1);
    m[6] = 0; // diagonal
    expect(erode(m, 5, 5)[12]).toBe(1);
  });

  it("never keeps a pixel on the image border, and returns a copy of the mask when nothing would be left", () => {
    // 4x1 and 1x4 full: every pixel is on the border -> empty -> the mask itself (a copy, values kept).
    const row = u8([1, 7, 7, 1]);
    const out = erode(row, 4, 1);
    expect(Array.from(out)).toEqual([1, 7, 7, 1]);
    expect(out).not.toBe(row);
    expect(Array.from(erode(u8([1, 1, 1, 1]), 1, 4))).toEqual([1, 1, 1, 1]);
    // 4x3 full: only (1,1) and (2,1) are inside; output values are 1 whatever the mask holds.
    expect(Array.from(erode(new Uint8Array(12).fill(9), 4, 3))).toEqual([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0]);
    // Empty stays empty.
    expect(Array.from(erode(new Uint8Array(9), 3, 3))).toEqual(new Array(9).fill(0));
  });
});

describe("pushPullFill", () => {
  it("leaves fully weighted data and a 1x1 image alone", () => {
    const d = f32([1, 2, 3, 4]);
    pushPullFill(d, f32([1, 1, 1, 1]), 2, 2, 1);
    expect(Array.from(d)).toEqual([1, 2, 3, 4]);
    const one = f32([5, 6]);
    pushPullFill(one, f32([0]), 1, 1, 2);
    expect(Array.from(one)).toEqual([5, 6]);
  });

  it("fills a 4x1 gap by interpolating the two coarse pixels bilinearly", () => {
    // Weights [1,0,0,1]: coarse 2x1 = [1, 3] (each the weighted mean of its 2 fine pixels, full weight).
    // Fine pixel centres in coarse coordinates: x=1 -> 0.25, x=2 -> 0.75: 0.75*1 + 0.25*3 = 1.5, 0.25*1 + 0.75*3 = 2.5.
    const d = f32([1, 9, 9, 3]);
    pushPullFill(d, f32([1, 0, 0, 1]), 4, 1, 1);
    near(d, [1, 1.5, 2.5, 3]);
  });

  it("blends partly weighted pixels with (1 - weight) of the extrapolation", () => {
    // Weights [1, 0.5, 0, 1], data [1, 2, 0, 3]: coarse X=0 = (1*1 + 0.5*2) / 1.5 = 4/3, weight min(1, 1.5) = 1; X=1 = 3.
    // x=1: up = 0.75 * 4/3 + 0.25 * 3 = 1.75 -> 0.5*2 + 0.5*1.75 = 1.875; x=2: up = 0.25 * 4/3 + 0.75 * 3 = 2.58333.
    const d = f32([1, 2, 0, 3]);
    pushPullFill(d, f32([1, 0.5, 0, 1]), 4, 1, 1);
    near(d, [1, 1.875, 2.5833333, 3]);
  });

  it("fills pixels of weight between 0.5 and 1 too (anything below 1 counts as a hole)", () => {
    // 2x1, weights [1, 0.5], data [1, 4]: coarse = (1 + 0.5*4) / 1.5 = 2 -> pixel 1 = 0.5*4 + 0.5*2 = 3.
    const d = f32([1, 4]);
    pushPullFill(d, f32([1, 0.5]), 2, 1, 1);
    near(d, [1, 3]);
  });

  it("caps a coarse pixel's weight at 1, so two full fine pixels count no more than one at the next level", () => {
    // 8x1, weights [1,1,1,0,0,0,0,0], data [0,0,6,...]: level 1 = [0 (weight 2 -> 1), 6 (1), _, _];
    // level 2 = [(0 + 6) / 2 = 3, _] -> [3, 3] (uncapped it would be (2*0 + 6) / 3 = 2); level 1 -> [0, 6, 3, 3].
    // Fine x = 3..7 at level-1 coordinates 1.25, 1.75, 2.25, 2.75, 3 (clamped): 5.25, 3.75, 3, 3, 3.
    const d = f32([0, 0, 6, 9, 9, 9, 9, 9]);
    pushPullFill(d, f32([1, 1, 1, 0, 0, 0, 0, 0]), 8, 1, 1);
    near(d, [0, 0, 6, 5.25, 3.75, 3, 3, 3], 5);
  });

  it("recurses until the pyramid is full: one known pixel fills a 4x1 row, every channel", () => {
    // [5,_,_,_] -> coarse [5,_] (weights [1,0]) -> [5] -> [5,5] -> [5,5,5,5]; channel 2 the same with 7.
    const d = f32([5, 7, 0, 0, 0, 0, 0, 0]);
    pushPullFill(d, f32([1, 0, 0, 0]), 4, 1, 2);
    near(d, [5, 7, 5, 7, 5, 7, 5, 7]);
  });

  it("fills the centre of a 3x3 from the 2x2 coarse grid (odd sizes, bilinear in x and y)", () => {
    // Values v(x,y) = x + 10 y, centre (1,1) missing. Coarse 2x2:
    //  (0,0) = mean of (0,0)=0, (1,0)=1, (0,1)=10 -> 11/3;  (1,0) = mean of (2,0)=2, (2,1)=12 -> 7;
    //  (0,1) = mean of (0,2)=20, (1,2)=21 -> 20.5;          (1,1) = (2,2) = 22.
    // Centre at coarse (0.25, 0.25): 0.75*(0.75*11/3 + 0.25*7) + 0.25*(0.75*20.5 + 0.25*22)
    //  = 0.75*4.5 + 0.25*20.875 = 8.59375.
    const d = f32([0, 1, 2, 10, -99, 12, 20, 21, 22]);
    const wt = f32([1, 1, 1, 1, 0, 1, 1, 1, 1]);
    pushPullFill(d, wt, 3, 3, 1);
    near(d, [0, 1, 2, 10, 8.59375, 12, 20, 21, 22], 5);
  });

  it("ignores the data of zero- and negative-weight pixels and works down a column (w = 1)", () => {
    // 1x4 column, weights [0, 1, -1, 1]: coarse [2, 4] (pixel 0 and 2 ignored), x fixed at 0.
    // y=0 -> coarse 0 (clamped) = 2; y=2 -> 0.75: 0.25*2 + 0.75*4 = 3.5 -> (1 - (-1)) * 3.5 + (-1) * 100 = -93.
    const d = f32([100, 2, 100, 4]);
    pushPullFill(d, f32([0, 1, -1, 1]), 1, 4, 1);
    near(d, [2, 2, -93, 4], 5);
  });
});

describe("smoothFields", () => {
  it("returns the masked box average (radius r, 1 pass), 0 outside the mask, on small images (grid = pixels)", () => {
    // 3x1 field [1, 2, 6], mask [1, 1, 0], r = 1: sums [1+2, 1+2, 2] over counts [2, 2, 1] -> [1.5, 1.5, (0: masked out)].
    const [a] = smoothFields([f32([1, 2, 6])], u8([1, 1, 0]), 3, 1, 1, 1);
    near(a!, [1.5, 1.5, 0]);
    // Two passes (a tent): den [2,2,1] -> [4,5,3]; num [3,3,2] -> [6,8,5]: [1.5, 1.6, 0].
    const [b] = smoothFields([f32([1, 2, 6])], u8([1, 1, 0]), 3, 1, 1, 2);
    near(b!, [1.5, 1.6, 0]);
  });

  it("rounds the radius to whole cells, at least 1, and returns one array per field", () => {
    const field = f32([0, 0, 0, 0, 10]);
    const all = u8([1, 1, 1, 1, 1]);
    // r = 0 and 1.4 -> 1: pixel 2 sees [0,0,0] -> 0, pixel 3 sees [0,0,10] -> 10/3.
    for (const r of [0, 1.4]) near(smoothFields([field], all, 5, 1, r, 1)[0]!, [0, 0, 0, 10 / 3, 5], 5);
    // r = 1.6 -> 2: pixel 2 sees all five -> 2, pixel 0 sees [0,0,0] -> 0, pixel 3 sees 4 -> 2.5.
    near(smoothFields([field], all, 5, 1, 1.6, 1)[0]!, [0, 0, 2, 2.5, 10 / 3], 5);
    const out = smoothFields([field, f32([1, 1, 1, 1, 1])], all, 5, 1, 1, 1);
    expect(out.length).toBe(2);
    near(out[1]!, [1, 1, 1, 1, 1]);
  });

  it("averages in 2-D without leaking masked-out values", () => {
    // 3x3, mask all but the centre (whose field value 100 must not count), r = 1, 1 pass.
    // Corner (0,0): window (0..1, 0..1) minus the centre -> (0 + 1 + 3) / 3 = 4/3; (1,0): (0+1+2+3+5)/5 = 2.2.
    const mask = u8([1, 1, 1, 1, 0, 1, 1, 1, 1]);
    const [a] = smoothFields([f32([0, 1, 2, 3, 100, 5, 6, 7, 8])], mask, 3, 3, 1, 1);
    near(a!, [4 / 3, 11 / 5, 8 / 3, 17 / 5, 0, 23 / 5, 16 / 3, 29 / 5, 20 / 3], 5);
  });

  it("estimates on a coarser grid above 511 pixels and interpolates back: a ramp stays a ramp", () => {
    // w = 512 -> cells of 2 pixels holding means 2X + 0.5; the blurred ratio of a ramp is the ramp in the
    // interior and pixel x sits at cell (x + 0.5) / 2 - 0.5, so the interpolation gives x back.
    const w = 512;
    const ramp = Float32Array.from({ length: w }, (_, x) => x);
    const [a] = smoothFields([ramp], new Uint8Array(w).fill(1), w, 1, 4, 1);
    for (const x of [10, 11, 100, 257, 500]) expect(a![x], `x=${x}`).toBeCloseTo(x, 2);
    // Ends: x = 0 clamps to cell 0, whose window (cells 0..2 with r = 4/2 = 2) averages 0.5, 2.5, 4.5 -> 2.5.
    expect(a![0]).toBeCloseTo(2.5, 4);
    // x = 511 clamps to the last cell: cells 253..255 -> 508.5.
    expect(a![511]).toBeCloseTo(508.5, 3);
    // w = 513: 257 cells, the last holding pixel 512 alone (value 512, weight 1). Cell ratios (r = 2 cells):
    // 255 -> (1013 + 1017 + 1021 + 512) / 7 = 509, 256 -> (1017 + 1021 + 512) / 5 = 510; pixel 512 sits at cell 255.75
    // and blends them weighted by the blurred mask (7, 5): (0.25*7*509 + 0.75*5*510) / (0.25*7 + 0.75*5) = 509.6818.
    const odd = Float32Array.from({ length: 513 }, (_, x) => x);
    const [c] = smoothFields([odd], new Uint8Array(513).fill(1), 513, 1, 4, 1);
    expect(c![512]).toBeCloseTo(509.6818, 3);
    expect(c![300]).toBeCloseTo(300, 2);
    // The same down a 1 x 513 column (cells and interpolation along y).
    const [col] = smoothFields([odd], new Uint8Array(513).fill(1), 1, 513, 4, 1);
    for (const y of [0, 11, 300, 512]) expect(col![y], `y=${y}`).toBeCloseTo(c![y]!, 3);
    // w = 511 still uses single pixels: r = 4 around x = 0 -> mean of 0..4 = 2.
    const [b] = smoothFields([ramp.subarray(0, 511)], new Uint8Array(511).fill(1), 511, 1, 4, 1);
    expect(b![0]).toBeCloseTo(2, 4);
  });
});

/** A w x h RGBA image (alpha 255 unless given) from per-pixel RGB bytes. */
function image(w: number, h: number, rgb: number[][], alpha?: number[]): DecodedImage {
  const data = new Uint8Array(w * h * 4);
  rgb.forEach((c, p) => data.set([c[0]!, c[1]!, c[2]!, alpha ? alpha[p]! : 255], p * 4));
  return { width: w, height: h, data, hasAlpha: !!alpha };
}
const L = (b: number) => SRGB_TO_LINEAR[b]!;

describe("resampleCrop", () => {
  it("copies a crop at its own size (one tap of weight 1): (r e, g e, b e, e, m) per pixel", () => {
    const img = image(2, 2, [
      [255, 0, 128],
      [0, 255, 0],
      [10, 11, 255],
      [255, 255, 255],
    ]);
    // Pixel 3 is in the mask but its colour is not trusted: e = 0, colour 0, m = 1. Pixel 1 is outside the mask.
    const out = resampleCrop(img, u8([1, 0, 1, 1]), u8([1, 1, 1, 0]), { x: 0, y: 0, w: 2, h: 2 }, 2, 2);
    near(out, [1, 0, L(128), 1, 1, 0, 0, 0, 0, 0, L(10), L(11), 1, 1, 1, 0, 0, 0, 0, 1]);
  });

  it("shrinks 4x1 to 2x1 with tent taps [1/2, 3/8, 1/8] (the tap left of the image merged into the edge pixel)", () => {
    // Scale 2, radius 2: output 0 centres at 0.5, taps -1..2 weigh 1/4, 3/4, 3/4, 1/4 -> -1 clamps onto 0:
    // [1, 3/4, 1/4] / 2 over pixels 0..2; output 1 mirrors it over pixels 1..3.
    const img = image(4, 1, [
      [255, 0, 0],
      [255, 0, 0],
      [128, 0, 0],
      [255, 0, 0],
    ]);
    // mask [1,1,1,0]; trusted colours [1,0,1,1] (pixel 3 trusted but outside the mask: ignored).
    const out = resampleCrop(img, u8([1, 1, 1, 0]), u8([1, 0, 1, 1]), { x: 0, y: 0, w: 4, h: 1 }, 2, 1);
    // Out 0: m = 1/2 + 3/8 + 1/8 = 1, e = 1/2 + 1/8, r = 1/2 + L(128)/8.  Out 1: m = 1/8 + 3/8, e = 3/8, r = 3/8 L(128).
    near(out, [0.5 + L(128) / 8, 0, 0, 0.625, 1, (3 / 8) * L(128), 0, 0, 0.375, 0.5]);
  });

  it("enlarges 1x2 to 1x4 with taps [1], [3/4, 1/4], [1/4, 3/4], [1] down the column, and 2x2 to 1x1 as the mean", () => {
    const img = image(1, 2, [
      [255, 0, 0],
      [0, 0, 255],
    ]);
    const out = resampleCrop(img, u8([1, 1]), u8([1, 1]), { x: 0, y: 0, w: 1, h: 2 }, 1, 4);
    near(out, [1, 0, 0, 1, 1, 0.75, 0, 0.25, 1, 1, 0.25, 0, 0.75, 1, 1, 0, 0, 1, 1, 1]);
    // 2x2 -> 1x1: taps -1..2 weigh 1/4, 3/4, 3/4, 1/4, clamped to [1, 1] / 2 in each direction.
    const sq = image(2, 2, [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [255, 255, 255],
    ]);
    near(resampleCrop(sq, u8([1, 1, 1, 0]), u8([1, 1, 1, 1]), { x: 0, y: 0, w: 2, h: 2 }, 1, 1), [0.25, 0.25, 0.25, 0.75, 0.75]);
  });

  it("samples the crop box at its offset and counts crop pixels outside the image as background", () => {
    const img = image(2, 2, [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [128, 128, 128],
    ]);
    const all = u8([1, 1, 1, 1]);
    // Crop (-1, 1, 2x2): out (0,0) <- (-1,1) outside; (1,0) <- (0,1) = blue; (0,1) <- (-1,2), (1,1) <- (0,2) outside.
    near(resampleCrop(img, all, all, { x: -1, y: 1, w: 2, h: 2 }, 2, 2), [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, ...new Array(10).fill(0)]);
    // Crop (1, 0, 2x1): (1,0) green then (2,0) outside.
    near(resampleCrop(img, all, all, { x: 1, y: 0, w: 2, h: 1 }, 2, 1), [0, 1, 0, 1, 1, 0, 0, 0, 0, 0]);
    // Crop (1, 1, 1x1): the grey pixel.
    near(resampleCrop(img, all, all, { x: 1, y: 1, w: 1, h: 1 }, 1, 1), [L(128), L(128), L(128), 1, 1]);
  });
});

/**
 * Brute-force illumination (grids of one pixel per cell): the luminance averaged over the mask with the
 * weights of two box passes of radius rr whose intermediate stays inside the image: pixel u counts for x
 * once per intermediate m in [0, w) within rr of both (3, 2, 1 for |u - x| = 0, 1, 2 in the middle; at
 * x = 0 only m = 0, 1 exist: 2, 2, 1). Separable in x and y.
 */
function tentIllum(rgb: Float32Array, mask: Uint8Array, w: number, h: number, rr: number): Float64Array {
  const out = new Float64Array(w * h);
  const t1 = (n: number, a: number, b: number) => {
    let c = 0;
    for (let m = 0; m < n; m++) if (Math.abs(m - a) <= rr && Math.abs(m - b) <= rr) c++;
    return c;
  };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0,
        ws = 0;
      for (let v = 0; v < h; v++)
        for (let u = 0; u < w; u++) {
          const q = v * w + u;
          if (!mask[q]) continue;
          const wt = t1(w, u, x) * t1(h, v, y);
          s += wt * (0.2126 * rgb[q * 3]! + 0.7152 * rgb[q * 3 + 1]! + 0.0722 * rgb[q * 3 + 2]!);
          ws += wt;
        }
      out[y * w + x] = mask[y * w + x] ? s / ws : 0;
    }
  return out;
}

/** clamp(illum / mean illum over the subject, 0.2, 5) per pixel (0 outside the subject). */
function illumRatios(rgb: Float32Array, mask: Uint8Array, w: number, h: number, rr: number): number[] {
  const illum = tentIllum(rgb, mask, w, h, rr);
  let sum = 0,
    cnt = 0;
  for (let p = 0; p < w * h; p++)
    if (mask[p]) {
      sum += illum[p]!;
      cnt++;
    }
  return Array.from(illum, (v, p) => (mask[p] ? Math.min(5, Math.max(0.2, (v * cnt) / sum)) : 0));
}

/** Expected de-shading: each subject pixel times clamp(illum / mean illum, 0.2, 5)^-min(1, s), capped at 1. */
function expectedDeshade(rgb: Float32Array, mask: Uint8Array, w: number, h: number, s: number, rr: number): number[] {
  const illum = tentIllum(rgb, mask, w, h, rr);
  let sum = 0,
    cnt = 0;
  for (let p = 0; p < w * h; p++)
    if (mask[p]) {
      sum += illum[p]!;
      cnt++;
    }
  return Array.from(rgb, (v, i) => {
    const p = (i / 3) | 0;
    if (!mask[p]) return v;
    const ratio = Math.min(5, Math.max(0.2, (illum[p]! * cnt) / sum));
    return Math.min(1, v * ratio ** -Math.min(1, s));
  });
}
const grey = (vs: number[]) => f32(vs.flatMap((v) => [v, v, v]));

describe("deshadeLinear", () => {
  it("flattens a linear grey gradient to its mean illumination where the tent sees a straight line", () => {
    // 7x1, v = 0.1 .. 0.7, radius 1 (tent over +-2): pixels 2..4 see the line itself, illum = v, so v / (v / mean) = mean.
    const rgb = grey([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]);
    const mask = new Uint8Array(7).fill(1);
    const want = expectedDeshade(rgb, mask, 7, 1, 1, 1);
    deshadeLinear(rgb, mask, 7, 1, 1, 1);
    near(rgb, want, 3);
    // The ends: illum(0) = (2*0.1 + 2*0.2 + 0.3) / 5 = 0.18, illum(1) = (2*0.1 + 3*0.2 + 2*0.3 + 0.4) / 8 = 0.225,
    // mirrored at the other end (0.62, 0.575), so the mean is 0.4 and pixel 0 becomes 0.1 / (0.18 / 0.4).
    expect(want[0]).toBeCloseTo(0.1 / (0.18 / 0.4), 3);
    for (const p of [2, 3, 4]) expect(rgb[p * 3]!, `pixel ${p}`).toBeCloseTo(0.4, 3);
  });

  it("scales all three channels of a colour by the same gain, from the Rec. 709 luminance", () => {
    // 4x1 red, green, blue, grey; lum = 0.2126 r + 0.7152 g + 0.0722 b = 0.2402, 0.6011, 0.1653, 0.3: the green
    // pixel is darkened most, the blue one lifted most.
    const rgb = f32([0.8, 0.1, 0.1, 0.1, 0.8, 0.1, 0.1, 0.1, 0.8, 0.3, 0.3, 0.3]);
    const mask = u8([1, 1, 1, 1]);
    const want = expectedDeshade(rgb, mask, 4, 1, 1, 1);
    deshadeLinear(rgb, mask, 4, 1, 1, 1);
    near(rgb, want, 3);
    expect(rgb[4]!).toBeLessThan(0.8);
    expect(rgb[8]!).toBeGreaterThan(0.8);
    expect(rgb[0]! / rgb[1]!).toBeCloseTo(8, 3);
  });

  it("leaves masked-out pixels alone and keeps them out of the illumination", () => {
    // 4x3: a bright background column (x = 3) outside the mask; subject a dim vertical gradient.
    const vals = [0.2, 0.2, 0.2, 0.9, 0.3, 0.3, 0.3, 0.9, 0.4, 0.4, 0.4, 0.9];
    const mask = u8([1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0]);
    const rgb = grey(vals);
    const want = expectedDeshade(rgb, mask, 4, 3, 1, 1);
    deshadeLinear(rgb, mask, 4, 3, 1, 1);
    near(rgb, want, 3);
    for (const p of [3, 7, 11]) expect(rgb[p * 3]).toBeCloseTo(0.9, 7);
    // The top row, darker than the mean, is lifted; the bottom is lowered.
    expect(rgb[0]!).toBeGreaterThan(0.2);
    expect(rgb[8 * 3]!).toBeLessThan(0.4);
  });

  it("clamps the illumination ratio to [0.2, 5] and the result to 1", () => {
    // 12x1: five near-black pixels then seven white: the dark end's ratio falls below 0.2 (gain 5 at most).
    const rgb = grey([0.001, 0.001, 0.001, 0.001, 0.001, 1, 1, 1, 1, 1, 1, 1]);
    const mask = new Uint8Array(12).fill(1);
    const want = expectedDeshade(rgb, mask, 12, 1, 1, 1);
    deshadeLinear(rgb, mask, 12, 1, 1, 1);
    near(rgb, want, 3);
    expect(rgb[0]).toBeCloseTo(0.005, 4);
    // 21x1: twenty at 0.01 and one white at the end: its ratio exceeds 5 -> 1 / 5.
    const spike = grey([...new Array(20).fill(0.01), 1]);
    const m21 = new Uint8Array(21).fill(1);
    deshadeLinear(spike, m21, 21, 1, 1, 1);
    expect(spike[60]).toBeCloseTo(0.2, 4);
    // A bright pixel in a dark neighbourhood would exceed 1: capped.
    const cap = grey([0.95, 0.95, 0.95, 0.95, 0.95, 0.95, 0.2, 0.95, 0.01]);
    const m9 = new Uint8Array(9).fill(1);
    const wantCap = expectedDeshade(cap, m9, 9, 1, 1, 1);
    expect(wantCap[21]).toBe(1);
    deshadeLinear(cap, m9, 9, 1, 1, 1);
    near(cap, wantCap, 3);
    expect(cap[21]).toBe(1);
  });

  it("raises the ratio to -strength, strength capped at 1; strength <= 0, an empty mask or black leave it unchanged", () => {
    const vals = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7];
    const mask = new Uint8Array(7).fill(1);
    const half = grey(vals);
    const wantHalf = expectedDeshade(half, mask, 7, 1, 0.5, 1);
    deshadeLinear(half, mask, 7, 1, 0.5, 1);
    near(half, wantHalf, 3);
    expect(half[0]).toBeCloseTo(0.1 / Math.sqrt(0.18 / 0.4), 3);
    const one = grey(vals),
      two = grey(vals);
    deshadeLinear(one, mask, 7, 1, 1, 1);
    deshadeLinear(two, mask, 7, 1, 2, 1);
    expect(Array.from(two)).toEqual(Array.from(one));
    for (const [s, m] of [
      [0, mask],
      [-1, mask],
      [1, new Uint8Array(7)],
    ] as const) {
      const rgb = grey(vals);
      deshadeLinear(rgb, m, 7, 1, s, 1);
      expect(Array.from(rgb)).toEqual(Array.from(grey(vals)));
    }
    // Strength 0 does not even cap values above 1.
    const bright = grey([1.5, 0.2, 0.3]);
    deshadeLinear(bright, u8([1, 1, 1]), 3, 1, 0, 1);
    expect(Array.from(bright)).toEqual(Array.from(grey([1.5, 0.2, 0.3])));
    // Near black: illum [0.8, 0.5, 0.25, 0] e-6 (weights 2/5, 2/8, 1/8, 0 on pixel 0), mean 0.39e-6 <= 1e-6 -> untouched.
    const dark = grey([2e-6, 0, 0, 0]);
    deshadeLinear(dark, u8([1, 1, 1, 1]), 4, 1, 1, 1);
    expect(Array.from(dark)).toEqual(Array.from(grey([2e-6, 0, 0, 0])));
    const black = grey([0, 0, 0, 0]);
    deshadeLinear(black, u8([1, 1, 1, 1]), 4, 1, 1, 1);
    expect(Array.from(black)).toEqual(new Array(12).fill(0));
  });
});

describe("deshadeLinear's gain table", () => {
  it("is within half a table step (4.8 / 16384 of ratio) of ratio^-1, so the nearest entry is taken", () => {
    // 64 grey values spread over 0.05 .. 0.95; |d(1/r)| for a ratio error of half a step e is e / r^2.
    const vals = Array.from({ length: 64 }, (_, i) => 0.05 + (((i * 37) % 64) / 64) * 0.9);
    const mask = new Uint8Array(64).fill(1);
    const rgb = grey(vals);
    const ratios = illumRatios(rgb, mask, 64, 1, 1);
    deshadeLinear(rgb, mask, 64, 1, 1, 1);
    const half = 4.8 / 16384 / 2;
    let checked = 0;
    for (let p = 0; p < 64; p++) {
      if (rgb[p * 3]! >= 1) continue;
      const r = ratios[p]!,
        gain = rgb[p * 3]! / Math.fround(vals[p]!);
      expect(Math.abs(gain - 1 / r), `pixel ${p}, ratio ${r}`).toBeLessThanOrEqual(half / (r * r) + 1e-5 / r);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });
});

describe("deshadeRadius", () => {
  it("is 6% of the longer side of the mask box, rounded, at least 3", () => {
    // 0.06 * [10, 58, 59, 75, 90, 100, 110] = [0.6, 3.48, 3.54, 4.5, 5.4, 6, 6.6].
    expect([10, 58, 59, 75, 90, 100, 110].map((b) => deshadeRadius(b, 1))).toEqual([3, 3, 4, 5, 5, 6, 7]);
    expect(deshadeRadius(1, 100)).toBe(6);
    expect(deshadeRadius(100, 59)).toBe(6);
    expect(deshadeRadius(0, 0)).toBe(3);
  });
});

describe("deshadeImage", () => {
  /** w x h grey image with bytes from f(x, y), alpha 200. */
  const greyImage = (w: number, h: number, f: (x: number, y: number) => number): DecodedImage => {
    const data = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set([f(x, y), f(x, y), f(x, y), 200], (y * w + x) * 4);
    return { width: w, height: h, data, hasAlpha: true };
  };

  it("flattens a gradient under the mask and leaves the background and every alpha byte alone", () => {
    // 7x2: row 0 background, row 1 a gradient of linear 0.1 .. 0.7 (as sRGB bytes), radius 1.
    const lin = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7];
    const img = greyImage(7, 2, (x, y) => (y ? linearToSrgb(lin[x]!) : 30 + x));
    const before = Uint8Array.from(img.data);
    const mask = u8([0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]);
    const out = deshadeImage(img, mask, 1, 1);
    expect(Array.from(img.data)).toEqual(Array.from(before)); // input untouched
    expect(out.width).toBe(7);
    expect(out.hasAlpha).toBe(true);
    for (let p = 0; p < 14; p++) {
      expect(out.data[p * 4 + 3]).toBe(200);
      if (!mask[p]) expect(Array.from(out.data.subarray(p * 4, p * 4 + 4)), `background ${p}`).toEqual([30 + p, 30 + p, 30 + p, 200]);
    }
    // Pixels 2..4 of the gradient all become the mean illumination (linear 0.4 -> byte 170).
    for (const x of [2, 3, 4]) expect(out.data[(7 + x) * 4], `x=${x}`).toBe(linearToSrgb(0.4));
    expect(linearToSrgb(0.4)).toBe(170);
  });

  it("takes the default radius from the mask's bounding box (6% of its longer side)", () => {
    // 120x3 image, mask row 1, x 20..94 -> box 75x1 -> 4.5 -> radius 5 (74 wide gives 4, 95 or 100 wide 6).
    const f = (x: number, y: number) => (40 + ((x * 7) % 150) + y) & 255;
    const wide = greyImage(120, 3, f);
    const mask = new Uint8Array(360);
    for (let x = 20; x < 95; x++) mask[120 + x] = 1;
    const auto = Array.from(deshadeImage(wide, mask, 1).data);
    expect(auto).toEqual(Array.from(deshadeImage(wide, mask, 1, 5).data));
    expect(auto).not.toEqual(Array.from(deshadeImage(wide, mask, 1, 4).data));
    expect(auto).not.toEqual(Array.from(deshadeImage(wide, mask, 1, 6).data));
    // Transposed: 3x120, mask column 1, y 10..109 -> box 1x100 -> radius 6 (90 or 110 tall would give 5 or 7).
    const tall = greyImage(3, 120, (x, y) => f(y, x));
    const tmask = new Uint8Array(360);
    for (let y = 10; y < 110; y++) tmask[y * 3 + 1] = 1;
    const tauto = Array.from(deshadeImage(tall, tmask, 1).data);
    expect(tauto).toEqual(Array.from(deshadeImage(tall, tmask, 1, 6).data));
    expect(tauto).not.toEqual(Array.from(deshadeImage(tall, tmask, 1, 5).data));
    expect(tauto).not.toEqual(Array.from(deshadeImage(tall, tmask, 1, 7).data));
  });

  it("returns the bytes unchanged at strength 0 and for a uniform subject (gain 1 round-trips every byte)", () => {
    const img = greyImage(4, 3, (x, y) => x * 60 + y);
    expect(Array.from(deshadeImage(img, new Uint8Array(12).fill(1), 0).data)).toEqual(Array.from(img.data));
    for (const b of [0, 1, 10, 11, 128, 254, 255]) {
      const flat = greyImage(3, 3, () => b);
      expect(Array.from(deshadeImage(flat, new Uint8Array(9).fill(1), 1).data), `byte ${b}`).toEqual(Array.from(flat.data));
    }
    // A uniform colour keeps each of its channels.
    const colour = image(3, 3, new Array(9).fill([200, 30, 90]));
    expect(Array.from(deshadeImage(colour, new Uint8Array(9).fill(1), 1).data)).toEqual(Array.from(colour.data));
  });
});
