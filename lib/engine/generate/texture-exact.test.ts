// textureMesh pinned exactly on single triangles, folded pairs, four-sided triangle sets and tiny
// 10 x 10 flat-colour views: chart choice, speckle vote, seams, uv mapping and atlas layout by hand.
import { describe, expect, it } from "vitest";
import type { RasterImage } from "@/lib/engine/mesh/types";
import type { DecodedImage } from "./image-input";
import type { View } from "./job";
import { type TextureOptions, type TextureView, textureMesh, VIEW_ORDER } from "./texture";
import { deshadeLinear, deshadeRadius, erode, linearRgbToRgba, pushPullFill, resampleCrop } from "./texture-image";
import { pbrMaps } from "./texture-pbr";

type RGB = [number, number, number];
type RGBA = [number, number, number, number];
const GREY: RGBA = [128, 128, 128, 255];
const COLOUR: Record<View, RGB> = { front: [200, 100, 50], back: [40, 160, 90], left: [30, 60, 220], right: [230, 210, 20] };

/** A w x h image, flat `colour` inside the inclusive box (mask 1 there), white elsewhere. */
function boxView(view: View, w: number, h: number, bx: [number, number, number, number], colour: RGB = COLOUR[view]): TextureView {
  const [x0, y0, x1, y1] = bx;
  const data = new Uint8Array(w * h * 4),
    mask = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const inside = x >= x0 && x <= x1 && y >= y0 && y <= y1;
      data.set(inside ? [...colour, 255] : [255, 255, 255, 255], (y * w + x) * 4);
      mask[y * w + x] = inside ? 1 : 0;
    }
  const image: DecodedImage = { width: w, height: h, data, hasAlpha: false };
  return { view, image, mask };
}

/** The standard view: 10 x 10, mask box x 3..6 (bw 4), y 1..8 (bh 8); margin 2 -> crop (1, -1, 8, 12). */
const std = (view: View, colour?: RGB) => boxView(view, 10, 10, [3, 1, 6, 8], colour);

const opts = (o: Partial<TextureOptions> = {}): TextureOptions => ({ pbr: false, shading: 0, atlasSize: 8, ...o });
const mesh = (p: number[][], i: number[]) => ({ positions: new Float32Array(p.flat()), indices: Uint32Array.from(i) });
const close = (got: ArrayLike<number>, want: number[], digits = 5) => {
  expect(got.length).toBe(want.length);
  want.forEach((w, i) => expect(got[i]!, `index ${i}`).toBeCloseTo(w, digits));
};

/** An atlas expected from a per-pixel colour function. */
function atlasOf(size: number, at: (x: number, y: number) => RGBA): number[] {
  const out: number[] = [];
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) out.push(...at(x, y));
  return out;
}
const px = (img: RasterImage) => Array.from(img.data);
const rgba = (c: RGB): RGBA => [...c, 255];

// Triangle T: P0 (0,0,0), P1 (2,0,1), P2 (0,4,2); edges (2,0,1), (0,4,2) -> normal (-4,-4,8)/sqrt(96).
const T = mesh(
  [
    [0, 0, 0],
    [2, 0, 1],
    [0, 4, 2],
  ],
  [0, 1, 2],
);
const TN = [-4 / Math.sqrt(96), -4 / Math.sqrt(96), 8 / Math.sqrt(96)];

describe("textureMesh: one view", () => {
  it("needs at least one view", () => {
    expect(() => textureMesh(T.positions, T.indices, [], opts())).toThrow("textureMesh needs at least one view");
  });

  it("VIEW_ORDER is front, back, left, right", () => {
    expect([...VIEW_ORDER]).toEqual(["front", "back", "left", "right"]);
  });

  it("front: uvs from the mask box, crop and tile; plain material; flat tile", () => {
    const out = textureMesh(T.positions, T.indices, [std("front")], opts());
    expect(out.name).toBe("model");
    expect(Array.from(out.positions)).toEqual([0, 0, 0, 2, 0, 1, 0, 4, 2]);
    expect(Array.from(out.indices)).toEqual([0, 1, 2]);
    close(out.normals, [...TN, ...TN, ...TN]);
    // Box X 0..2, Y 0..4; tile 8 x 8 from crop 8 x 12: sx 1, sy 2/3.
    // u = (2 + X * 4 / 2) / 8; v = (2 + (4 - Y) * 8 / 4) * (2/3) / 8 = (2 + 2 (4 - Y)) / 12.
    close(out.uvs, [0.25, 10 / 12, 0.75, 10 / 12, 0.25, 2 / 12]);
    const m = out.material!;
    expect(m.name).toBe("texture");
    expect(m.baseColorFactor).toEqual([1, 1, 1, 1]);
    expect(m.metallicFactor).toBe(0);
    expect(m.roughnessFactor).toBe(0.65);
    expect(m.metallicRoughnessTexture).toBeUndefined();
    expect(m.normalTexture).toBeUndefined();
    const b = m.baseColorTexture!;
    expect([b.width, b.height]).toEqual([8, 8]);
    expect(px(b)).toEqual(atlasOf(8, () => rgba(COLOUR.front)));
  });

  // Back: a = -X, amin = -2 -> u = (2 + (2 - X) * 2) / 8. Left: a = Z (0..2) -> u = (2 + 2 Z) / 8.
  // Right: a = -Z, amin = -2 -> u = (2 + 2 (2 - Z)) / 8. v as for the front.
  it.each([
    ["back", [0.75, 0.25, 0.75], 3],
    ["left", [0.25, 0.5, 0.75], 8.4],
    ["right", [0.75, 0.5, 0.25], 7.6],
  ] as const)("%s alone: the triangle takes it (seen through where needed), u %j", (view, us, atlasSize) => {
    const out = textureMesh(T.positions, T.indices, [std(view)], opts({ atlasSize }));
    close(out.uvs, [us[0], 10 / 12, us[1], 10 / 12, us[2], 2 / 12]);
    // Atlas side: max(8, round(atlasSize)) = 8 for 3, 8.4 and 7.6.
    expect(out.material!.baseColorTexture!.width).toBe(8);
    expect(px(out.material!.baseColorTexture!)).toEqual(atlasOf(8, () => rgba(COLOUR[view])));
  });

  it("atlasSize 8.6 rounds to a 9 x 9 atlas (tile 9 x 9)", () => {
    const out = textureMesh(T.positions, T.indices, [std("front")], opts({ atlasSize: 8.6 }));
    // sx = 9/8, sy = 9/12: u = (2 + 2X) * 9/8 / 9 = (2 + 2X) / 8 as before; v = (2 + 2(4 - Y)) * 0.75 / 9 = (2 + 2(4 - Y)) / 12.
    close(out.uvs, [0.25, 10 / 12, 0.75, 10 / 12, 0.25, 2 / 12]);
    expect(out.material!.baseColorTexture!.height).toBe(9);
  });

  it("bounds replace the mesh box; uvs outside [0, 1] are clamped", () => {
    const bounds = { min: [0.5, 1, 0] as [number, number, number], max: [1, 3, 2] as [number, number, number] };
    const out = textureMesh(T.positions, T.indices, [std("front")], opts({ bounds }));
    // span X 0.5: u = (2 + 8 (X - 0.5)) / 8 -> -2/8 -> 0, 14/8 -> 1, 0;
    // ySpan 2, maxY 3: v = (2 + 4 (3 - Y)) / 12 -> 14/12 -> 1, 1, -2/12 -> 0.
    close(out.uvs, [0, 1, 1, 1, 0, 0]);
  });

  it("a mesh flat along the view's horizontal axis (span 0 -> 1e-9) maps to the box's left edge", () => {
    const m = mesh(
      [
        [0, 0, 0],
        [2, 0, 0],
        [0, 4, 0],
      ],
      [0, 1, 2],
    );
    const out = textureMesh(m.positions, m.indices, [std("left")], opts());
    // Left: a = Z = 0 = amin: u = 2 / 8 everywhere; v as for T.
    close(out.uvs, [0.25, 10 / 12, 0.25, 10 / 12, 0.25, 2 / 12]);
  });

  it("an empty mask uses the whole image as the box; the tile is black", () => {
    const v = std("front");
    v.mask.fill(0);
    const out = textureMesh(T.positions, T.indices, [v], opts());
    // Box 10 x 10 at (0, 0), margin 2: crop (-2, -2, 14, 14), sx = sy = 8/14.
    // u = (2 + X * 10/2) / 14; v = (2 + (4 - Y) * 10/4) / 14.
    close(out.uvs, [2 / 14, 12 / 14, 12 / 14, 12 / 14, 2 / 14, 2 / 14]);
    expect(px(out.material!.baseColorTexture!)).toEqual(atlasOf(8, () => [0, 0, 0, 255]));
  });

  it("margin grows to round(0.02 * longest box side): 126 px wide box -> 3", () => {
    const v = boxView("front", 130, 4, [2, 1, 127, 2]);
    const out = textureMesh(T.positions, T.indices, [v], opts());
    // bw 126, bh 2, margin 3: crop (-1, -2, 132, 8); sx = 8/132, sy = 1.
    // u = (3 + X * 126/2) / 132; v = (3 + (4 - Y) * 2/4) / 8.
    close(out.uvs, [3 / 132, 5 / 8, 129 / 132, 5 / 8, 3 / 132, 3 / 8]);
  });

  it("an unused vertex: normal +Y, uv from the first used chart", () => {
    const m = mesh(
      [
        [0, 0, 0],
        [2, 0, 1],
        [0, 4, 2],
        [1, 1, 1],
      ],
      [0, 1, 2],
    );
    const out = textureMesh(m.positions, m.indices, [std("front")], opts());
    close(out.normals, [...TN, ...TN, ...TN, 0, 1, 0]);
    // u = (2 + 2 * 1) / 8, v = (2 + 2 * 3) / 12.
    close(out.uvs, [0.25, 10 / 12, 0.75, 10 / 12, 0.25, 2 / 12, 0.5, 8 / 12]);
  });

  it("no triangles: the first present view is the chart of every vertex", () => {
    const m = mesh(
      [
        [0, 0, 0],
        [2, 4, 2],
      ],
      [],
    );
    const out = textureMesh(m.positions, m.indices, [std("left"), std("back")], opts());
    expect(Array.from(out.indices)).toEqual([]);
    close(out.normals, [0, 1, 0, 0, 1, 0]);
    // Back (first in VIEW_ORDER): u = (2 + 2 (2 - X)) / 8, v = (2 + 2 (4 - Y)) / 12.
    close(out.uvs, [0.75, 10 / 12, 0.25, 2 / 12]);
    expect(px(out.material!.baseColorTexture!)).toEqual(atlasOf(8, () => rgba(COLOUR.back)));
  });
});

describe("textureMesh: several views", () => {
  it("degenerate triangle: normals +Y, all scores 0, the first available chart wins; flat spans stay finite", () => {
    const m = mesh(
      [
        [0, 0, 0],
        [1, 0, 0],
        [2, 0, 0],
      ],
      [0, 1, 2],
    );
    const out = textureMesh(m.positions, m.indices, [std("left"), std("back")], opts());
    close(out.normals, [0, 1, 0, 0, 1, 0, 0, 1, 0]);
    // Back chart: u = (2 + 2 (2 - X)) / 8; ySpan 1e-9 with Y = maxY: v = 2 * (2/3) / 8 = 1/6.
    close(out.uvs, [0.75, 1 / 6, 0.5, 1 / 6, 0.25, 1 / 6]);
    expect(px(out.material!.baseColorTexture!)).toEqual(atlasOf(8, () => rgba(COLOUR.back)));
  });

  // Fold: T0 (V0 V1 V2) in z = 1 facing +Z, T1 (V1 V3 V2) in x = 1 facing +X, sharing edge V1-V2.
  // Vertex normals: V0 +Z, V3 +X, V1 = V2 = (1, 0, 1)/sqrt2. T0 smoothed (1.414, 0, 2.414)/2.798:
  // front 0.863, right 0.505 (0.357 apart, beyond the vote slack 0.3) -> front; T1 mirrored -> right.
  const fold = (dy: number) => [
    [-1, dy, 1],
    [1, dy, 1],
    [1, dy + 2, 1],
    [1, dy, -1],
  ];
  const foldIdx = (b: number) => [b, b + 1, b + 2, b + 1, b + 3, b + 2];
  const s2 = Math.SQRT1_2;

  it("front + right fold: seam duplicates, side-by-side tiles in a 9 x 9 atlas, last column grey", () => {
    const m = mesh(fold(0), foldIdx(0));
    const out = textureMesh(m.positions, m.indices, [std("front"), std("right")], opts({ atlasSize: 9 }));
    // T1 = (V1, V3, V2): V1 and V2 already front -> duplicates 4 and 5 in that order.
    expect(Array.from(out.indices)).toEqual([0, 1, 2, 4, 3, 5]);
    expect(Array.from(out.positions)).toEqual([-1, 0, 1, 1, 0, 1, 1, 2, 1, 1, 0, -1, 1, 0, 1, 1, 2, 1]);
    close(out.normals, [0, 0, 1, s2, 0, s2, s2, 0, s2, 1, 0, 0, s2, 0, s2, s2, 0, s2]);
    // Cells 4 x 9; sx = 4/8, sy = 9/12. Front: u = (2 + 2 (X + 1)) / 2 / 9 = (X + 2)/9;
    // right (tile x 4): a = -Z, amin = -1: u = (4 + (2 + 2 (1 - Z)) / 2) / 9 = (6 - Z)/9;
    // both: v = (2 + 4 (2 - Y)) * 0.75 / 9 -> Y 0: 7.5/9, Y 2: 1.5/9.
    close(out.uvs, [1 / 9, 7.5 / 9, 3 / 9, 7.5 / 9, 3 / 9, 1.5 / 9, 7 / 9, 7.5 / 9, 5 / 9, 7.5 / 9, 5 / 9, 1.5 / 9]);
    expect(px(out.material!.baseColorTexture!)).toEqual(
      atlasOf(9, (x) => (x < 4 ? rgba(COLOUR.front) : x < 8 ? rgba(COLOUR.right) : GREY)),
    );
  });

  it("more than 16 seam duplicates: the extra-vertex buffers grow", () => {
    const p: number[][] = [],
      idx: number[] = [];
    for (let j = 0; j < 9; j++) {
      p.push(...fold(3 * j));
      idx.push(...foldIdx(4 * j));
    }
    const m = mesh(p, idx);
    const out = textureMesh(m.positions, m.indices, [std("front"), std("right")], opts({ atlasSize: 9 }));
    // Pair j: [4j, 4j+1, 4j+2, 36+2j, 4j+3, 37+2j]; 36 originals + 18 duplicates.
    const want: number[] = [];
    for (let j = 0; j < 9; j++) want.push(4 * j, 4 * j + 1, 4 * j + 2, 36 + 2 * j, 4 * j + 3, 37 + 2 * j);
    expect(Array.from(out.indices)).toEqual(want);
    expect(out.positions.length).toBe(54 * 3);
    for (let j = 0; j < 9; j++) {
      expect(Array.from(out.positions.subarray((36 + 2 * j) * 3, (38 + 2 * j) * 3))).toEqual([1, 3 * j, 1, 1, 3 * j + 2, 1]);
      close(out.normals.subarray((36 + 2 * j) * 3, (38 + 2 * j) * 3), [s2, 0, s2, s2, 0, s2]);
      // Duplicates are on the right chart at Z = 1: u = 5/9; Y range 0..26: v = (2 + 8 (26 - Y)/26) * 0.75 / 9.
      const v = (y: number) => ((2 + (8 * (26 - y)) / 26) * 0.75) / 9;
      close(out.uvs.subarray((36 + 2 * j) * 2, (38 + 2 * j) * 2), [5 / 9, v(3 * j), 5 / 9, v(3 * j + 2)]);
    }
  });

  // Four disjoint triangles on the faces of the box X -1..1, Y 0..2, Z -1..1: F faces +Z, B -Z, L -X, R +X.
  const quad = mesh(
    [
      [-1, 0, 1],
      [1, 0, 1],
      [0, 2, 1],
      [1, 0, -1],
      [-1, 0, -1],
      [0, 2, -1],
      [-1, 0, -1],
      [-1, 0, 1],
      [-1, 2, 0],
      [1, 0, 1],
      [1, 0, -1],
      [1, 2, 0],
    ],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  );
  // Cells 4 x 4 in 8 x 8; sx = 4/8, sy = 4/12. Row 0: v = (2 + 4 (2 - Y)) / 3 / 8 -> Y 0: 10/24, Y 2: 2/24;
  // row 1 adds 4/8 -> 22/24, 14/24. Front u = (X + 2)/8, back (x 4) u = (6 - X)/8,
  // left (0, 4) u = (Z + 2)/8, right (4, 4) u = (6 - Z)/8.
  const vRow0 = [10 / 24, 10 / 24, 2 / 24],
    vRow1 = [22 / 24, 22 / 24, 14 / 24];
  const uvF = [1 / 8, 3 / 8, 2 / 8],
    uvB = [5 / 8, 7 / 8, 6 / 8];
  const uvL = [1 / 8, 3 / 8, 2 / 8];
  const zip = (u: number[], v: number[]) => u.flatMap((x, i) => [x, v[i]!]);

  it("front, back, left: 2 x 2 cells, the +X triangle is served by the left view seen through, cell 4 grey", () => {
    const out = textureMesh(quad.positions, quad.indices, [std("left"), std("front"), std("back")], opts());
    expect(Array.from(out.indices)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(out.positions.length).toBe(36);
    // R on the left chart: Z 1, -1, 0 -> u 3/8, 1/8, 2/8.
    close(out.uvs, [...zip(uvF, vRow0), ...zip(uvB, vRow0), ...zip(uvL, vRow1), ...zip([3 / 8, 1 / 8, 2 / 8], vRow1)]);
    expect(px(out.material!.baseColorTexture!)).toEqual(
      atlasOf(8, (x, y) => (y < 4 ? rgba(x < 4 ? COLOUR.front : COLOUR.back) : x < 4 ? rgba(COLOUR.left) : GREY)),
    );
  });

  it("all four views: each triangle its own view, 2 x 2 cells", () => {
    const views = VIEW_ORDER.map((v) => std(v));
    const out = textureMesh(quad.positions, quad.indices, views, opts());
    // R on the right chart: Z 1, -1, 0 -> u 5/8, 7/8, 6/8.
    close(out.uvs, [...zip(uvF, vRow0), ...zip(uvB, vRow0), ...zip(uvL, vRow1), ...zip([5 / 8, 7 / 8, 6 / 8], vRow1)]);
    const c = (x: number, y: number) => rgba(COLOUR[VIEW_ORDER[(y < 4 ? 0 : 2) + (x < 4 ? 0 : 1)]!]);
    expect(px(out.material!.baseColorTexture!)).toEqual(atlasOf(8, c));
  });

  it("an unused vertex with three charts in use takes the first (front) for its uv", () => {
    const m = mesh(
      [...Array.from({ length: 12 }, (_, v) => Array.from(quad.positions.subarray(v * 3, v * 3 + 3))), [0, 1, 0]],
      [...quad.indices],
    );
    const out = textureMesh(m.positions, m.indices, [std("left"), std("front"), std("back")], opts());
    close(out.normals.subarray(36), [0, 1, 0]);
    // Front cell (0, 0): u = (X + 2)/8 = 2/8, v = (2 + 4 (2 - Y)) / 24 = 6/24.
    close(out.uvs.subarray(24), [2 / 8, 6 / 24]);
  });
  it("pbr: factors 1, flat maps in the tiles and plain fill in the unused cell", () => {
    const out = textureMesh(quad.positions, quad.indices, [std("left"), std("front"), std("back")], opts({ pbr: true }));
    const m = out.material!;
    expect(m.metallicFactor).toBe(1);
    expect(m.roughnessFactor).toBe(1);
    // Flat colours: no highlight -> roughness 0.7, metallic 0; flat normals. pbrMaps keeps roughness
    // in float32: fround(0.7) * 255 = 178.49999 -> 178; the unused cell: round(0.7 * 255 = 178.5) = 179.
    expect(px(m.metallicRoughnessTexture!)).toEqual(atlasOf(8, (x, y) => [255, x >= 4 && y >= 4 ? 179 : 178, 0, 255]));
    expect(px(m.normalTexture!)).toEqual(atlasOf(8, () => [128, 128, 255, 255]));
    expect([m.normalTexture!.width, m.metallicRoughnessTexture!.height]).toEqual([8, 8]);
  });
});

describe("textureMesh: speckle vote and occlusion", () => {
  /**
   * Big triangle t (area-weighted normal 200) with unit normal (sin a, 0, cos a), then m tiny
   * +X-facing triangles (normal 1e-4) hanging on each of its corners. Tiny ones: smoothed normal
   * ~ (2 + sin a, 0, cos a) -> right, front out of the slack. t alone: front cos a, right sin a.
   */
  function spiky(deg: number, m: number, spikeFacesFront = false) {
    const a = (deg * Math.PI) / 180;
    const e1 = [Math.cos(a), 0, -Math.sin(a)];
    const corners = [e1.map((c) => -10 * c), e1.map((c) => 10 * c), [0, 10, 0]];
    const p = [...corners],
      idx = [0, 1, 2];
    for (let k = 0; k < 3; k++)
      for (let r = 0; r < m; r++) {
        const [x, y, z] = corners[k]!;
        idx.push(k, p.length, p.length + 1);
        // +X spike: edges (0, 0, -0.01), (0, 0.01, 0); +Z spike: edges (0.01, 0, 0), (0, 0.01, 0).
        p.push(spikeFacesFront ? [x! + 0.01, y!, z!] : [x!, y!, z! - 0.01], [x!, y! + 0.01, z!]);
      }
    return mesh(p, idx);
  }
  const run = (deg: number, m: number) => {
    const s = spiky(deg, m);
    return textureMesh(s.positions, s.indices, [std("front"), std("right")], opts());
  };

  it("35 deg, two spikes per corner: right wins 6 votes to 3 (within slack 0.2456) -> no seams", () => {
    const out = run(35, 2);
    expect(Array.from(out.indices)).toEqual([0, 1, 2, 0, 3, 4, 0, 5, 6, 1, 7, 8, 1, 9, 10, 2, 11, 12, 2, 13, 14]);
    expect(out.positions.length).toBe(15 * 3);
    // Only the right chart is used: one tile.
    expect(px(out.material!.baseColorTexture!)).toEqual(atlasOf(8, () => rgba(COLOUR.right)));
  });

  it("35 deg, one spike per corner: 3 votes to 3 is a tie, t stays front -> its corners are duplicated", () => {
    const out = run(35, 1);
    expect(Array.from(out.indices)).toEqual([0, 1, 2, 9, 3, 4, 10, 5, 6, 11, 7, 8]);
    expect(out.positions.length).toBe(12 * 3);
    expect(px(out.material!.baseColorTexture!)).toEqual(atlasOf(8, (x) => rgba(x < 4 ? COLOUR.front : COLOUR.right)));
  });

  it("30 deg, two spikes per corner: right is 0.366 behind (beyond the slack 0.3), t stays front", () => {
    const out = run(30, 2);
    expect(Array.from(out.indices)).toEqual([0, 1, 2, 15, 3, 4, 15, 5, 6, 16, 7, 8, 16, 9, 10, 17, 11, 12, 17, 13, 14]);
    expect(out.positions.length).toBe(18 * 3);
  });

  it("60 deg (right best, front 0.366 behind) with two +Z spikes per corner: front out of the slack, t stays right", () => {
    // The slack is measured from the best score over all four charts, the right one included.
    const sp = spiky(60, 2, true);
    const out = textureMesh(sp.positions, sp.indices, [std("front"), std("right")], opts());
    expect(Array.from(out.indices)).toEqual([0, 1, 2, 15, 3, 4, 15, 5, 6, 16, 7, 8, 16, 9, 10, 17, 11, 12, 17, 13, 14]);
    expect(px(out.material!.baseColorTexture!)).toEqual(atlasOf(8, (x) => rgba(x < 4 ? COLOUR.front : COLOUR.right)));
  });

  it("the second vote pass: t2 flips only once its neighbour t has flipped", () => {
    // t (A B C) and t2 (C E D) coplanar at 35 deg, sharing C; +X spikes: 2 at A, 2 at B, 1 at C, D, E.
    // Pass 1: t right 2 + 2 + 1 = 5 > front 1 + 1 + 2 = 4 -> right; t2 right 1 + 1 + 1 = 3 <= 4 -> stays.
    // Pass 2: t2 right 3 + 1 (t at C) = 4 > front 1 + 1 + 1 = 3 -> right. One pass would leave t2 front.
    const a = (35 * Math.PI) / 180;
    const at = (p: number, q: number) => [p * Math.cos(a), q, -p * Math.sin(a)];
    const p = [at(-10, 0), at(10, 0), at(0, 10), at(-10, 20), at(10, 20)],
      idx = [0, 1, 2, 2, 4, 3];
    for (const [k, n] of [
      [0, 2],
      [1, 2],
      [2, 1],
      [3, 1],
      [4, 1],
    ] as const)
      for (let r = 0; r < n; r++) {
        const [x, y, z] = p[k]!;
        idx.push(k, p.length, p.length + 1);
        p.push([x!, y!, z! - 0.01], [x!, y! + 0.01, z!]);
      }
    const s = mesh(p, idx);
    const out = textureMesh(s.positions, s.indices, [std("front"), std("right")], opts());
    expect(Array.from(out.indices)).toEqual(idx);
    expect(out.positions.length).toBe(19 * 3);
    expect(px(out.material!.baseColorTexture!)).toEqual(atlasOf(8, () => rgba(COLOUR.right)));
  });

  it("exactly two vote passes: in a chain t1 - t2 - t3 the third would flip only in a third pass", () => {
    // Coplanar 35 deg triangles t1 (A B C), t2 (C F D), t3 (F G H); +X spikes A 2, B 2, C 1, D 2, F 1, G 1, H 1.
    // Pass 1: t1 right 5 > front 4 -> right; t2 right 1 + 1 + 2 = 4 <= front 2 + 2 + 1 = 5; t3 3 <= 4.
    // Pass 2: t2 right 4 + 1 = 5 > front 1 + 2 + 1 = 4 -> right; t3 3 <= 4 stays front (a pass 3 would flip it: 4 > 3).
    const a = (35 * Math.PI) / 180;
    const at = (p: number, q: number) => [p * Math.cos(a), q, -p * Math.sin(a)];
    const p = [at(-10, 0), at(10, 0), at(0, 10), at(-10, 20), at(10, 20), at(20, 30), at(0, 30)],
      idx = [0, 1, 2, 2, 4, 3, 4, 5, 6];
    for (const [k, n] of [
      [0, 2],
      [1, 2],
      [2, 1],
      [3, 2],
      [4, 1],
      [5, 1],
      [6, 1],
    ] as const)
      for (let r = 0; r < n; r++) {
        const [x, y, z] = p[k]!;
        idx.push(k, p.length, p.length + 1);
        p.push([x!, y!, z! - 0.01], [x!, y! + 0.01, z!]);
      }
    expect(p.length).toBe(27);
    const s = mesh(p, idx);
    const out = textureMesh(s.positions, s.indices, [std("front"), std("right")], opts());
    // Everything right but t3 (front): t3's F is duplicated (27), the spikes at G and H take duplicates 28, 29.
    const want = [...idx];
    want[6] = 27;
    want[want.length - 6] = 28;
    want[want.length - 3] = 29;
    expect(Array.from(out.indices)).toEqual(want);
    expect(out.positions.length).toBe(30 * 3);
  });

  it("a triangle hidden from the right by another surface takes the front view", () => {
    // Occluder O in x = 5 facing +X; H through the origin with normal (cos 20, 0, sin 20):
    // right 0.940 - 1.5 < front 0.342 -> front. Both charts used: two tiles.
    const a = (20 * Math.PI) / 180,
      c = Math.cos(a),
      s = Math.sin(a);
    const m = mesh(
      [
        [5, -10, 10],
        [5, -10, -10],
        [5, 10, 0],
        [-s, 0, c],
        [s, 0, -c],
        [0, 1, 0],
      ],
      [0, 1, 2, 3, 4, 5],
    );
    const out = textureMesh(m.positions, m.indices, [std("front"), std("right")], opts());
    expect(px(out.material!.baseColorTexture!)).toEqual(atlasOf(8, (x) => rgba(x < 4 ? COLOUR.front : COLOUR.right)));
    // H on the front chart: X range -s..5, u = (2 + 4 (X + s) / (5 + s)) / 2 / 8.
    const u = (x: number) => (2 + (4 * (x + s)) / (5 + s)) / 16;
    close([out.uvs[6]!, out.uvs[8]!, out.uvs[10]!], [u(-s), u(s), u(0)]);
  });

  it("a zero-area triangle hides nothing (its face normal stays 0)", () => {
    // Collinear D at z = 5 with its centroid (0, 1/3, 5) right in front of H's centroid (0, 1/3, 0).
    // D: vertex normals +Y, scores 0 -> front; H (normal (sin 20, 0, cos 20)) unhidden -> front.
    const a = (20 * Math.PI) / 180,
      c = Math.cos(a),
      s = Math.sin(a);
    const m = mesh(
      [
        [-1, 1 / 3, 5],
        [0, 1 / 3, 5],
        [1, 1 / 3, 5],
        [-c, 0, s],
        [c, 0, -s],
        [0, 1, 0],
      ],
      [0, 1, 2, 3, 4, 5],
    );
    const out = textureMesh(m.positions, m.indices, [std("front"), std("right")], opts());
    expect(px(out.material!.baseColorTexture!)).toEqual(atlasOf(8, () => rgba(COLOUR.front)));
  });

  it("a triangle hidden from the front by another surface takes the right view (penalty 1.5)", () => {
    // Occluder O in z = 5 facing +Z; H through the origin with normal (sin 20, 0, cos 20):
    // front 0.940 - 1.5 < right 0.342 -> right. O faces away from the right camera (not drawn there).
    const a = (20 * Math.PI) / 180,
      c = Math.cos(a),
      s = Math.sin(a);
    const m = mesh(
      [
        [-10, -10, 5],
        [10, -10, 5],
        [0, 10, 5],
        [-c, 0, s],
        [c, 0, -s],
        [0, 1, 0],
      ],
      [0, 1, 2, 3, 4, 5],
    );
    const out = textureMesh(m.positions, m.indices, [std("front"), std("right")], opts());
    expect(out.positions.length).toBe(18);
    // Two tiles used: O on the front (left half), H on the right (right half).
    expect(px(out.material!.baseColorTexture!)).toEqual(atlasOf(8, (x) => rgba(x < 4 ? COLOUR.front : COLOUR.right)));
    // H on the right chart: Z range -s..5, a = -Z, amin = -5: u = (4 + (2 + 4 (5 - Z) / (5 + s)) / 2) / 8.
    const u = (z: number) => (4 + (2 + (4 * (5 - z)) / (5 + s)) / 2) / 8;
    close([out.uvs[6]!, out.uvs[8]!, out.uvs[10]!], [u(s), u(-s), u(0)]);
  });
});

describe("textureMesh: tile rendering", () => {
  /** A view whose box (inclusive) carries a light gradient along x (f 0.3..1) of a warm colour. */
  function gradientView(view: View, w: number, h: number, bx: [number, number, number, number]): TextureView {
    const v = boxView(view, w, h, bx);
    for (let y = bx[1]; y <= bx[3]; y++)
      for (let x = bx[0]; x <= bx[2]; x++) {
        const f = 0.3 + (0.7 * x) / w;
        v.image.data.set([Math.round(220 * f), Math.round(140 * f), Math.round(90 * f)], (y * w + x) * 4);
      }
    return v;
  }

  /** Reference tile: the texture-image / texture-pbr steps on a hand-computed crop, tile size and radius. */
  function refTile(
    v: TextureView,
    crop: { x: number; y: number; w: number; h: number },
    tw: number,
    th: number,
    shading: number,
    radius: number,
  ) {
    const { width: W, height: H } = v.image;
    const src = resampleCrop(v.image, v.mask, erode(v.mask, W, H), crop, tw, th);
    const n = tw * th,
      rgb = new Float32Array(n * 3),
      valid = new Uint8Array(n),
      wt = new Float32Array(n),
      tmask = new Uint8Array(n);
    for (let p = 0; p < n; p++) {
      const e = src[p * 5 + 3]!;
      if (e > 1e-3) {
        for (let k = 0; k < 3; k++) rgb[p * 3 + k] = src[p * 5 + k]! / e;
        valid[p] = 1;
        wt[p] = 1;
      }
      tmask[p] = src[p * 5 + 4]! >= 0.5 ? 1 : 0;
    }
    deshadeLinear(rgb, valid, tw, th, shading, radius);
    pushPullFill(rgb, wt, tw, th, 3);
    const base = linearRgbToRgba(rgb, n);
    return { base, ...pbrMaps(base, tmask, tw, th) };
  }

  /** The tw x th block at (x, y) of a size-wide RGBA image. */
  const block = (img: RasterImage, x: number, y: number, tw: number, th: number) => {
    const out = new Uint8Array(tw * th * 4);
    for (let r = 0; r < th; r++) out.set(img.data.subarray(((y + r) * img.width + x) * 4, ((y + r) * img.width + x + tw) * 4), r * tw * 4);
    return out;
  };
  const diff = (a: Uint8Array, b: Uint8Array) => a.reduce((s, x, i) => s + Math.abs(x - b[i]!), 0);

  it("one chart: de-shading and pbr maps run on the resampled tile with the tile-scaled box", () => {
    // 80 x 40 image, box x 2..77 (bw 76), y 2..37 (bh 36), margin 2: crop (0, 0, 80, 40) onto a 64 x 64 atlas:
    // sx 0.8, sy 1.6 -> deshade radius of (60.8, 57.6) = round(3.648) = 4.
    const v = gradientView("front", 80, 40, [2, 2, 77, 37]);
    const out = textureMesh(T.positions, T.indices, [v], opts({ atlasSize: 64, shading: 0.8, pbr: true }));
    expect(deshadeRadius(76 * 0.8, 36 * 1.6)).toBe(4);
    const ref = refTile(v, { x: 0, y: 0, w: 80, h: 40 }, 64, 64, 0.8, 4);
    const m = out.material!;
    expect(diff(m.baseColorTexture!.data, ref.base)).toBe(0);
    expect(diff(m.metallicRoughnessTexture!.data, ref.metallicRoughness)).toBe(0);
    expect(diff(m.normalTexture!.data, ref.normal)).toBe(0);
    // The de-shading did something: the shading-0 reference differs.
    expect(diff(refTile(v, { x: 0, y: 0, w: 80, h: 40 }, 64, 64, 0, 4).base, ref.base)).toBeGreaterThan(1000);
  });

  it("two charts: 32 x 64 tiles, each de-shaded with its own tile-scaled radius", () => {
    // Fold: T0 front, T1 right. Cells 32 x 64.
    // Front 80 x 40, box 76 x 36, crop (0, 0, 80, 40): sx 0.4, sy 1.6 -> radius of (30.4, 57.6) = round(3.456) = 3.
    // Right 80 x 60, box 76 x 56, crop (0, 0, 80, 60): sx 0.4, sy 64/60 -> radius of (30.4, 59.73) = round(3.584) = 4.
    const f = gradientView("front", 80, 40, [2, 2, 77, 37]),
      r = gradientView("right", 80, 60, [2, 2, 77, 57]);
    expect([deshadeRadius(30.4, 57.6), deshadeRadius(30.4, (56 * 64) / 60)]).toEqual([3, 4]);
    const m = mesh(
      [
        [-1, 0, 1],
        [1, 0, 1],
        [1, 2, 1],
        [1, 0, -1],
      ],
      [0, 1, 2, 1, 3, 2],
    );
    const out = textureMesh(m.positions, m.indices, [f, r], opts({ atlasSize: 64, shading: 1, pbr: true }));
    const mat = out.material!;
    const rf = refTile(f, { x: 0, y: 0, w: 80, h: 40 }, 32, 64, 1, 3),
      rr = refTile(r, { x: 0, y: 0, w: 80, h: 60 }, 32, 64, 1, 4);
    expect(diff(block(mat.baseColorTexture!, 0, 0, 32, 64), rf.base)).toBe(0);
    expect(diff(block(mat.baseColorTexture!, 32, 0, 32, 64), rr.base)).toBe(0);
    expect(diff(block(mat.metallicRoughnessTexture!, 32, 0, 32, 64), rr.metallicRoughness)).toBe(0);
    expect(diff(block(mat.normalTexture!, 32, 0, 32, 64), rr.normal)).toBe(0);
    expect(diff(block(mat.normalTexture!, 0, 0, 32, 64), rf.normal)).toBe(0);
  });
});
