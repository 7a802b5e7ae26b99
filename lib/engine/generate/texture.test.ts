import { describe, expect, it } from "vitest";
import type { MeshPart, RasterImage } from "@/lib/engine/mesh/types";
import type { View } from "./job";
import { checkManifold, weldScene } from "./mesh-ops";
import { box, sceneOf, synthImage, uvSphere } from "./generate.test-helpers";
import { type TextureView, textureMesh } from "./texture";
import { deshadeImage } from "./texture-image";

type RGB = [number, number, number];
const BG: RGB = [255, 255, 255];
const VIEWS: View[] = ["front", "back", "left", "right"];
/** Towards each camera. */
const CAM: Record<View, [number, number, number]> = { front: [0, 0, 1], back: [0, 0, -1], left: [-1, 0, 0], right: [1, 0, 0] };

/** 16 well separated colours: red by image half (left/right), green by top/bottom, blue by view. */
const quadColour = (view: View, right: boolean, bottom: boolean): RGB => [
  right ? 220 : 30,
  bottom ? 220 : 30,
  [0, 80, 160, 240][VIEWS.indexOf(view)]!,
];

function maskOf(img: { width: number; height: number; data: Uint8Array }): Uint8Array {
  const m = new Uint8Array(img.width * img.height);
  for (let p = 0; p < m.length; p++) {
    const r = img.data[p * 4]!,
      g = img.data[p * 4 + 1]!,
      b = img.data[p * 4 + 2]!;
    m[p] = r === BG[0] && g === BG[1] && b === BG[2] ? 0 : 1;
  }
  return m;
}

/** A disc subject (off-centre in the frame) painted in the view's four quadrant colours. */
function discView(view: View, n = 160): TextureView {
  const cx = n * 0.45,
    cy = n * 0.55,
    r = n * 0.3;
  const image = synthImage(n, n, BG, (x, y) =>
    (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r ? quadColour(view, x + 0.5 > cx, y + 0.5 > cy) : null,
  );
  return { view, image, mask: maskOf(image) };
}

/** A w x h rectangle subject in one flat colour. */
function rectView(view: View, w: number, h: number, colour: RGB): TextureView {
  const image = synthImage(w + 40, h + 30, BG, (x, y) => (x >= 20 && x < 20 + w && y >= 10 && y < 10 + h ? colour : null));
  return { view, image, mask: maskOf(image) };
}

function sample(img: RasterImage, u: number, v: number): RGB {
  const x = Math.min(img.width - 1, Math.floor(u * img.width)),
    y = Math.min(img.height - 1, Math.floor(v * img.height));
  const o = (y * img.width + x) * 4;
  return [img.data[o]!, img.data[o + 1]!, img.data[o + 2]!];
}

const close = (a: RGB, b: RGB, tol: number) => Math.abs(a[0] - b[0]) <= tol && Math.abs(a[1] - b[1]) <= tol && Math.abs(a[2] - b[2]) <= tol;

interface Tri {
  n: [number, number, number];
  c: [number, number, number];
  uv: [number, number];
}

/** Per-triangle unit normal, centroid and uv centroid of a textured part. */
function triangles(p: MeshPart): Tri[] {
  const out: Tri[] = [];
  const P = p.positions,
    I = p.indices,
    UV = p.uvs!;
  for (let t = 0; t < I.length; t += 3) {
    const a = I[t]!,
      b = I[t + 1]!,
      c = I[t + 2]!;
    const u = [0, 1, 2].map((k) => P[b * 3 + k]! - P[a * 3 + k]!),
      w = [0, 1, 2].map((k) => P[c * 3 + k]! - P[a * 3 + k]!);
    const n: [number, number, number] = [u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!];
    const l = Math.hypot(...n);
    out.push({
      n: [n[0] / l, n[1] / l, n[2] / l],
      c: [0, 1, 2].map((k) => (P[a * 3 + k]! + P[b * 3 + k]! + P[c * 3 + k]!) / 3) as [number, number, number],
      uv: [(UV[a * 2]! + UV[b * 2]! + UV[c * 2]!) / 3, (UV[a * 2 + 1]! + UV[b * 2 + 1]! + UV[c * 2 + 1]!) / 3],
    });
  }
  return out;
}

const dot = (a: readonly number[], b: readonly number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;

/** Expected quadrant of a point seen from a view (sphere centred at `c`). */
function expectedColour(view: View, p: [number, number, number], c: [number, number, number]): RGB | null {
  const a = view === "front" ? p[0] - c[0] : view === "back" ? c[0] - p[0] : view === "left" ? p[2] - c[2] : c[2] - p[2];
  const y = p[1] - c[1];
  if (Math.abs(a) < 4 || Math.abs(y) < 4) return null; // near a quadrant border
  return quadColour(view, a > 0, y < 0);
}

/** Common structural checks: order/count kept, uvs in range, seams only where charts meet, welds closed. */
function checkStructure(src: MeshPart, out: MeshPart, atlas: RasterImage, tiles: number) {
  const nv = src.positions.length / 3;
  expect(out.indices.length).toBe(src.indices.length);
  // Same triangles in the same order: every corner sits at the original corner's position.
  let moved = 0;
  for (let i = 0; i < src.indices.length; i++) {
    for (let k = 0; k < 3; k++) if (out.positions[out.indices[i]! * 3 + k] !== src.positions[src.indices[i]! * 3 + k]) moved++;
  }
  expect(moved).toBe(0);
  // Originals keep their index.
  expect(out.positions.subarray(0, nv * 3)).toEqual(src.positions);
  expect(out.uvs!.length).toBe((out.positions.length / 3) * 2);
  expect(out.normals!.length).toBe(out.positions.length);
  expect(Math.min(...out.uvs!)).toBeGreaterThanOrEqual(0);
  expect(Math.max(...out.uvs!)).toBeLessThanOrEqual(1);
  // Chart of each triangle = its atlas cell; all three uvs in that cell.
  const cols = tiles === 1 ? 1 : 2,
    rows = tiles <= 2 ? 1 : 2;
  const cellOf = (u: number, v: number) => Math.min(rows - 1, Math.floor(v * rows)) * cols + Math.min(cols - 1, Math.floor(u * cols));
  const chart = new Int32Array(src.indices.length / 3);
  let straddling = 0;
  for (let t = 0; t < chart.length; t++) {
    const cells = [0, 1, 2].map((k) => {
      const v = out.indices[t * 3 + k]!;
      return cellOf(out.uvs![v * 2]!, out.uvs![v * 2 + 1]!);
    });
    if (cells[1] !== cells[0] || cells[2] !== cells[0]) straddling++;
    chart[t] = cells[0]!;
  }
  expect(straddling).toBe(0);
  // Seams: an output vertex per (original vertex, chart) pair in use, nothing more.
  const pairs = new Set<number>();
  for (let i = 0; i < src.indices.length; i++) pairs.add(src.indices[i]! * 4 + chart[(i / 3) | 0]!);
  expect(out.positions.length / 3).toBe(pairs.size);
  const outChart = new Int32Array(out.positions.length / 3).fill(-1);
  let shared = 0;
  for (let i = 0; i < out.indices.length; i++) {
    const v = out.indices[i]!,
      c = chart[(i / 3) | 0]!;
    if (outChart[v]! >= 0 && outChart[v] !== c) shared++;
    outChart[v] = c;
  }
  expect(shared).toBe(0);
  // Still a closed, oriented two-manifold once welded.
  const welded = weldScene(sceneOf({ name: "t", positions: out.positions, indices: out.indices }));
  expect(welded.indices.length).toBe(src.indices.length);
  expect(checkManifold(welded.indices)).toMatchObject({ closed: true, oriented: true });
  expect(atlas.width).toBeGreaterThan(0);
}

describe("textureMesh charts and atlas", () => {
  const centre: [number, number, number] = [12, 40, -7];
  const sphere = uvSphere(50, 32, 64, centre);

  const sets: View[][] = [VIEWS, ["front", "left", "right"], ["front", "back"], ["front", "left"]];
  it.each(sets.map((set) => [set.join("+"), set] as const))(
    "%s: each triangle samples the view facing it (a missing side: the opposite view seen through)",
    (_, set) => {
      const views = set.map((v) => discView(v));
      const out = textureMesh(sphere.positions, sphere.indices, views, { pbr: false, shading: 0, atlasSize: 512 });
      const atlas = out.material!.baseColorTexture!;
      expect(atlas.width).toBe(512);
      checkStructure(sphere, out, atlas, set.length);
      const opposite: Record<View, View> = { front: "back", back: "front", left: "right", right: "left" };
      const seen: Record<string, number> = {};
      let wrong = 0;
      for (const t of triangles(out)) {
        for (const dir of VIEWS) {
          if (dot(t.n, CAM[dir]) < 0.8) continue;
          const view = set.includes(dir) ? dir : set.includes(opposite[dir]) ? opposite[dir] : null;
          if (!view) {
            // Neither this side nor its opposite was photographed: some view's colour, no backdrop.
            const got = sample(atlas, t.uv[0], t.uv[1]);
            if (!set.some((v) => Math.abs(got[2] - quadColour(v, false, false)[2]) <= 12)) wrong++;
            seen[dir] = (seen[dir] ?? 0) + 1;
            continue;
          }
          const want = expectedColour(view, t.c, centre);
          if (!want) continue;
          if (!close(sample(atlas, t.uv[0], t.uv[1]), want, 12)) wrong++;
          seen[dir] = (seen[dir] ?? 0) + 1;
        }
      }
      expect(wrong).toBe(0);
      for (const v of VIEWS) expect(seen[v]).toBeGreaterThan(40);
      // Seams exist (several charts), yet few vertices are duplicated.
      const nv = sphere.positions.length / 3;
      expect(out.positions.length / 3).toBeGreaterThan(nv);
      expect(out.positions.length / 3).toBeLessThan(nv * 1.25);
    },
  );

  it("charts are consistent: each is one connected patch on a sphere (no speckles)", () => {
    const views = VIEWS.map((v) => discView(v));
    const out = textureMesh(sphere.positions, sphere.indices, views, { pbr: false, shading: 0, atlasSize: 256 });
    // Connected components of triangles sharing a vertex in the output (seams split charts).
    const nt = out.indices.length / 3,
      parent = Int32Array.from({ length: out.positions.length / 3 }, (_, i) => i);
    const find = (x: number): number => {
      while (parent[x] !== x) {
        parent[x] = parent[parent[x]!]!;
        x = parent[x]!;
      }
      return x;
    };
    for (let t = 0; t < nt; t++) {
      const a = find(out.indices[t * 3]!),
        b = find(out.indices[t * 3 + 1]!),
        c = find(out.indices[t * 3 + 2]!);
      parent[b] = a;
      parent[find(c)] = a;
    }
    const roots = new Set<number>();
    for (let t = 0; t < nt; t++) roots.add(find(out.indices[t * 3]!));
    expect(roots.size).toBe(4);
  });

  it("front view only: one tile, no seams, back-facing triangles sample the front image seen through", () => {
    const out = textureMesh(sphere.positions, sphere.indices, [discView("front")], { pbr: false, shading: 0, atlasSize: 256 });
    const atlas = out.material!.baseColorTexture!;
    checkStructure(sphere, out, atlas, 1);
    expect(out.positions.length).toBe(sphere.positions.length);
    let back = 0;
    for (const t of triangles(out)) {
      if (dot(t.n, CAM.back) > 0.8) {
        const want = expectedColour("front", t.c, centre);
        if (!want) continue;
        expect(close(sample(atlas, t.uv[0], t.uv[1]), want, 12)).toBe(true);
        back++;
      }
    }
    expect(back).toBeGreaterThan(40);
  });

  it("textures an arbitrary box (request_type 2 style) from 4 flat-coloured views", () => {
    const b = box([-40, 0, -20], [40, 100, 20]);
    const colours: Record<View, RGB> = { front: [200, 30, 30], back: [30, 200, 30], left: [30, 30, 200], right: [200, 200, 30] };
    const views = [
      rectView("front", 80, 100, colours.front),
      rectView("back", 80, 100, colours.back),
      rectView("left", 40, 100, colours.left),
      rectView("right", 40, 100, colours.right),
    ];
    const out = textureMesh(b.positions, b.indices, views, { pbr: false, shading: 0, atlasSize: 256 });
    const atlas = out.material!.baseColorTexture!;
    checkStructure(b, out, atlas, 4);
    let n = 0;
    for (const t of triangles(out)) {
      for (const v of VIEWS) {
        if (dot(t.n, CAM[v]) < 0.99) continue;
        expect(sample(atlas, t.uv[0], t.uv[1])).toEqual(colours[v]);
        n++;
      }
    }
    expect(n).toBe(8);
    // The front face's uvs span exactly the subject inside the front tile (top-left cell).
    const us: number[] = [],
      vs: number[] = [];
    for (let t = 0; t < out.indices.length / 3; t++) {
      const tri = triangles(out)[t]!;
      if (dot(tri.n, CAM.front) < 0.99) continue;
      for (let k = 0; k < 3; k++) {
        const v = out.indices[t * 3 + k]!;
        us.push(out.uvs![v * 2]!);
        vs.push(out.uvs![v * 2 + 1]!);
      }
    }
    // Subject box 80 x 100 px with margin max(2, 2) -> crop 84 x 104 mapped onto a 128 x 128 cell.
    expect(Math.min(...us) * 256).toBeCloseTo((2 * 128) / 84, 3);
    expect(Math.max(...us) * 256).toBeCloseTo((82 * 128) / 84, 3);
    expect(Math.min(...vs) * 256).toBeCloseTo((2 * 128) / 104, 3);
    expect(Math.max(...vs) * 256).toBeCloseTo((102 * 128) / 104, 3);
  });

  it("occlusion: a view does not paint what it cannot see (other views fill it in)", () => {
    // Sphere A (r 50 at (0, 50, 0)) with box B beside it on +X, hiding part of A from the right.
    const A = uvSphere(50, 48, 96, [0, 50, 0]),
      B = box([65, 35, -10], [85, 65, 10]);
    const nA = A.positions.length / 3;
    const mesh: MeshPart = {
      name: "ab",
      positions: Float32Array.from([...A.positions, ...B.positions]),
      indices: Uint32Array.from([...A.indices, ...Array.from(B.indices, (i) => i + nA)]),
    };
    const red: RGB = [200, 40, 40],
      green: RGB = [40, 200, 40],
      magenta: RGB = [200, 40, 200];
    const inA = (x: number, y: number, z: number) => x * x + (y - 50) ** 2 + z * z <= 2500;
    const inB = (x: number, y: number, z: number) => x >= 65 && x <= 85 && y >= 35 && y <= 65 && z >= -10 && z <= 10;
    // Orthographic renders at 1 px = 1 mm, subject box at pixel (10, 10); y = 110 - row.
    const render = (w: number, hit: (a: number, y: number) => RGB | null): TextureView => {
      const image = synthImage(w + 20, 120, BG, (i, j) => hit(i + 0.5 - 10, 100 - (j + 0.5 - 10)));
      return { view: "front", image, mask: maskOf(image) };
    };
    // Front: a = x + 50 (x from -50); right: a = 50 - z (looking from +X, image x -> -Z).
    const front = render(135, (a, y) => {
      const x = a - 50;
      if (x >= 65 && x <= 85 && y >= 35 && y <= 65) return green;
      return x * x + (y - 50) ** 2 <= 2500 ? red : null;
    });
    const right = {
      ...render(100, (a, y) => {
        const z = 50 - a;
        if (inB(70, y, z)) return green;
        return y >= 0 && inA(0, y, z) ? magenta : null;
      }),
      view: "right" as const,
    };
    const out = textureMesh(mesh.positions, mesh.indices, [front, right], { pbr: false, shading: 0, atlasSize: 512 });
    const atlas = out.material!.baseColorTexture!;
    checkStructure(mesh, out, atlas, 2);
    let hidden = 0,
      visible = 0,
      boxSide = 0;
    triangles(out).forEach((t, i) => {
      if (dot(t.n, CAM.right) < 0.8) return; // the right view faces it best
      const got = sample(atlas, t.uv[0], t.uv[1]);
      if (i >= A.indices.length / 3) {
        expect(close(got, green, 12), `box ${t.c.map(Math.round).join(",")} uv ${t.uv.join(",")}: ${got.join(",")}`).toBe(true);
        boxSide++;
        return;
      }
      const [, y, z] = t.c;
      // Hidden behind B from the right: the front image's colour (red; near A's front
      // outline the bled backdrop mixes in a little of B's green), never the right's green.
      if (Math.abs(z) < 7 && y > 39 && y < 61) {
        expect(close(got, red, 40), `hidden at ${t.c.map(Math.round).join(",")}: ${got.join(",")}`).toBe(true);
        hidden++;
      } else if (Math.abs(z) > 13 || y < 32 || y > 68) {
        expect(close(got, magenta, 12), `visible at ${t.c.map(Math.round).join(",")}: ${got.join(",")}`).toBe(true);
        visible++;
      }
    });
    expect(hidden).toBeGreaterThan(20);
    expect(visible).toBeGreaterThan(100);
    expect(boxSide).toBe(2);
  });

  it("bounds: one part of several is fitted to the whole scene's box", () => {
    // Two spheres side by side; the front image is red on its left half, blue on its right.
    const a = uvSphere(25, 16, 32, [-30, 25, 0]),
      b = uvSphere(25, 16, 32, [30, 25, 0]);
    const image = synthImage(120, 60, BG, (x, y) =>
      y >= 5 && y < 55 && x >= 5 && x < 115 ? (x < 60 ? [220, 30, 30] : [30, 30, 220]) : null,
    );
    const views = [{ view: "front" as const, image, mask: maskOf(image) }];
    const bounds = { min: [-55, 0, -25] as [number, number, number], max: [55, 50, 25] as [number, number, number] };
    for (const [part, colour] of [
      [a, [220, 30, 30]],
      [b, [30, 30, 220]],
    ] as const) {
      const out = textureMesh(part.positions, part.indices, views, { pbr: false, shading: 0, atlasSize: 128, bounds });
      const atlas = out.material!.baseColorTexture!;
      let n = 0;
      for (const t of triangles(out)) {
        if (dot(t.n, CAM.front) < 0.5) continue;
        expect(sample(atlas, t.uv[0], t.uv[1])).toEqual(colour);
        n++;
      }
      expect(n).toBeGreaterThan(50);
    }
  });

  it("shading 0 keeps the image colours; the background is bled with subject colours (no halo)", () => {
    const v = discView("front");
    const out = textureMesh(sphere.positions, sphere.indices, [v], { pbr: false, shading: 0, atlasSize: 256 });
    const atlas = out.material!.baseColorTexture!;
    // No white anywhere in the atlas: the backdrop was replaced by subject colours.
    let white = 0;
    for (let p = 0; p < atlas.width * atlas.height; p++) if (atlas.data[p * 4]! > 240 && atlas.data[p * 4 + 1]! > 240) white++;
    expect(white).toBe(0);
    expect(out.material!.metallicRoughnessTexture).toBeUndefined();
    expect(out.material!.normalTexture).toBeUndefined();
  });
});

describe("de-shading", () => {
  // A flat-coloured subject lit by a strong left-to-right gradient, with sharp painted
  // stripes in its lower part.
  const N = 200,
    x0 = 30,
    x1 = 170,
    y0 = 20,
    y1 = 180;
  const albedo: RGB = [200, 140, 90],
    stripe: RGB = [60, 60, 160];
  const light = (x: number) => 0.25 + 0.75 * ((x - x0) / (x1 - x0));
  const isStripe = (y: number) => y >= 130 && Math.floor((y - 130) / 8) % 2 === 0;
  const srgb = (c: number, f: number) => {
    const lin = (c / 255) ** 2.2 * f;
    return Math.round(255 * lin ** (1 / 2.2));
  };
  const image = synthImage(N, N, BG, (x, y) => {
    if (x < x0 || x >= x1 || y < y0 || y >= y1) return null;
    const a = isStripe(y) ? stripe : albedo;
    return [srgb(a[0], light(x)), srgb(a[1], light(x)), srgb(a[2], light(x))];
  });
  const mask = maskOf(image);
  const lum = (d: Uint8Array, x: number, y: number) => {
    const o = (y * N + x) * 4;
    return 0.2126 * d[o]! + 0.7152 * d[o + 1]! + 0.0722 * d[o + 2]!;
  };
  function plainVariance(d: Uint8Array): number {
    let s = 0,
      s2 = 0,
      n = 0;
    for (let y = y0; y < 120; y++)
      for (let x = x0; x < x1; x++) {
        const l = lum(d, x, y);
        s += l;
        s2 += l * l;
        n++;
      }
    return s2 / n - (s / n) ** 2;
  }

  it("strength 1 flattens the lighting gradient (>5x less variance) and keeps stripe edges sharp", () => {
    const out = deshadeImage(image, mask, 1);
    const before = plainVariance(image.data),
      after = plainVariance(out.data);
    expect(before / after).toBeGreaterThan(20); // measured ~197x
    // Stripe edges (y 137 | 138, 145 | 146 ...) keep their contrast ratio and stay one pixel sharp.
    for (const x of [45, 100, 155]) {
      for (const e of [138, 154]) {
        const ratioIn = lum(image.data, x, e) / lum(image.data, x, e - 1);
        const ratioOut = lum(out.data, x, e) / lum(out.data, x, e - 1);
        expect(ratioOut / ratioIn).toBeGreaterThan(0.85);
        expect(ratioOut / ratioIn).toBeLessThan(1.15);
        expect(Math.abs(lum(out.data, x, e) - lum(out.data, x, e + 1))).toBeLessThan(0.05 * lum(out.data, x, e));
      }
    }
    // The background is untouched.
    expect(Array.from(out.data.subarray(0, 4))).toEqual([255, 255, 255, 255]);
  });

  it("strength 0 changes nothing; strength 0.5 is in between", () => {
    expect(Buffer.compare(deshadeImage(image, mask, 0).data, image.data)).toBe(0);
    const half = plainVariance(deshadeImage(image, mask, 0.5).data);
    expect(half).toBeLessThan(plainVariance(image.data));
    expect(half).toBeGreaterThan(plainVariance(deshadeImage(image, mask, 1).data));
  });

  it("textureMesh applies the shading strength to the atlas", () => {
    const plane = box([-70, 0, -5], [70, 160, 5]);
    const v: TextureView = { view: "front", image, mask };
    const spread = (s: number) => {
      const out = textureMesh(plane.positions, plane.indices, [v], { pbr: false, shading: s, atlasSize: 256 });
      const a = out.material!.baseColorTexture!;
      // Plain subject rows: atlas rows for image y 30..110 (box 140 x 160, margin 3: crop 146 x 166 from (27, 17) onto 256 x 256).
      let lo = Infinity,
        hi = -Infinity;
      for (let y = Math.round(((30 - 17) * 256) / 166); y < Math.round(((110 - 17) * 256) / 166); y++) {
        for (let x = Math.round(((x0 + 6 - 27) * 256) / 146); x < Math.round(((x1 - 6 - 27) * 256) / 146); x++) {
          const o = (y * 256 + x) * 4,
            l = 0.2126 * a.data[o]! + 0.7152 * a.data[o + 1]! + 0.0722 * a.data[o + 2]!;
          lo = Math.min(lo, l);
          hi = Math.max(hi, l);
        }
      }
      return hi - lo;
    };
    expect(spread(0)).toBeGreaterThan(50);
    expect(spread(1)).toBeLessThan(spread(0) / 3);
  });
});

describe("pbr maps", () => {
  // A mid-grey slab with a bright disc (raised) and a glossy patch of white highlights.
  const N = 240;
  const discC = [90, 110],
    discR = 30;
  const inDisc = (x: number, y: number) => (x + 0.5 - discC[0]!) ** 2 + (y + 0.5 - discC[1]!) ** 2 <= discR * discR;
  const glossy = (x: number, y: number) => x >= 150 && x < 210 && y >= 40 && y < 200;
  const image = synthImage(N, N, BG, (x, y) => {
    if (x < 20 || x >= 220 || y < 20 || y >= 220) return null;
    if (inDisc(x, y)) return [230, 230, 230];
    if (glossy(x, y)) return x % 10 < 2 && y % 10 < 2 ? [250, 250, 250] : [70, 72, 75];
    return [120, 100, 90];
  });
  const mask = maskOf(image);
  const plane = box([-50, 0, -5], [50, 100, 5]);
  const out = textureMesh(plane.positions, plane.indices, [{ view: "front", image, mask }], { pbr: true, shading: 0, atlasSize: 256 });
  const m = out.material!;
  // Atlas pixel of image pixel (x, y): box 200 x 200, margin 4: crop 208 x 208 from (16, 16) onto 256 x 256.
  const toAtlas = (x: number) => Math.floor(((x + 0.5 - 16) * 256) / 208);
  const px = (img: RasterImage, ax: number, ay: number): RGB => {
    const o = (ay * 256 + ax) * 4;
    return [img.data[o]!, img.data[o + 1]!, img.data[o + 2]!];
  };
  const at = (img: RasterImage, x: number, y: number): RGB => px(img, toAtlas(x), toAtlas(y));

  it("material factors are 1 and the textures share the atlas layout", () => {
    expect(m.metallicFactor).toBe(1);
    expect(m.roughnessFactor).toBe(1);
    expect(m.metallicRoughnessTexture!.width).toBe(m.baseColorTexture!.width);
    expect(m.normalTexture!.height).toBe(m.baseColorTexture!.height);
    // The mapping used by `at` is right: the disc centre is bright in the base colour.
    expect(at(m.baseColorTexture!, discC[0]!, discC[1]!)[0]).toBeGreaterThan(220);
  });

  it("normal map: the bright disc's rim tilts outwards, flat areas are (128,128,255)", () => {
    const nt = m.normalTexture!;
    const [cx, cy] = discC as [number, number];
    // Strongest tilt within 4 texels of each rim point.
    const ex = (ax: number, ay: number, ch: 0 | 1, dx: number, dy: number, sign: 1 | -1) => {
      let best = px(nt, ax, ay);
      for (let i = -4; i <= 4; i++) {
        const c = px(nt, ax + i * dx, ay + i * dy);
        if (sign * (c[ch] - best[ch]) > 0) best = c;
      }
      return best;
    };
    const acx = toAtlas(cx),
      acy = toAtlas(cy);
    const right = ex(toAtlas(cx + discR), acy, 0, 1, 0, 1),
      left = ex(toAtlas(cx - discR), acy, 0, 1, 0, -1);
    const top = ex(acx, toAtlas(cy - discR), 1, 0, 1, 1),
      bottom = ex(acx, toAtlas(cy + discR), 1, 0, 1, -1);
    expect(right[0]).toBeGreaterThan(160);
    expect(left[0]).toBeLessThan(96);
    expect(top[1]).toBeGreaterThan(160);
    expect(bottom[1]).toBeLessThan(96);
    expect(Math.abs(right[1] - 128)).toBeLessThan(12);
    expect(Math.abs(top[0] - 128)).toBeLessThan(12);
    // The rim is the only bumpy place: normals 10 texels inside and outside the disc are flat.
    expect(px(nt, toAtlas(cx + discR) + 10, acy)).toEqual([128, 128, 255]);
    expect(px(nt, toAtlas(cx + discR) - 10, acy)).toEqual([128, 128, 255]);
    for (const [x, y] of [
      [cx, cy],
      [60, 190],
      [120, 40],
      [40, 40],
    ] as const) {
      expect(at(nt, x, y)).toEqual([128, 128, 255]);
    }
  });

  it("roughness is lower on the glossy patch than on the matte area; metallic is 0 on matte paint", () => {
    const mr = m.metallicRoughnessTexture!;
    const matte = at(mr, 60, 190),
      gloss = at(mr, 180, 120);
    expect(matte[1]).toBeGreaterThan(gloss[1] + 40);
    expect(matte[2]).toBe(0);
    expect(at(mr, discC[0]!, discC[1]!)[2]).toBe(0);
    // Not a constant texture.
    const gs = new Set<number>();
    for (let p = 0; p < mr.width * mr.height; p++) gs.add(mr.data[p * 4 + 1]!);
    expect(gs.size).toBeGreaterThan(5);
  });
});
