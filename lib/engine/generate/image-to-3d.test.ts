import { describe, expect, it } from "vitest";
import { buildGridSolid, regularizeGridMask } from "./grid-mesh";
import { gridCellsFor, loadView, sceneFromViews, textureExistingScene, textureInput } from "./image-to-3d";
import { inflateHeights, inflateSilhouette } from "./inflate";
import { maskBounds } from "./mask-ops";
import { checkManifold, meshBounds, signedVolume, weldScene } from "./mesh-ops";
import { discMask, fixture, sceneOf, uvSphere } from "./generate.test-helpers";
import { makeWellComposed, visualHull, voxelSurface } from "./visual-hull";

function randomMask(w: number, h: number, seed: number, density: number): Uint8Array {
  const m = new Uint8Array(w * h);
  let s = seed;
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      m[y * w + x] = s % 1000 < density * 1000 ? 1 : 0;
    }
  return m;
}

describe("grid solids", () => {
  it("pillow solids over random masks are closed, oriented two-manifolds", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const w = 24,
        h = 18;
      const mask = regularizeGridMask(randomMask(w, h, seed, 0.55), w, h, true);
      const nv = (w + 1) * (h + 1);
      const top = new Float32Array(nv).fill(2),
        bottom = new Float32Array(nv).fill(-2);
      const s = buildGridSolid({ mask, gw: w, gh: h, top, bottom, rimSmoothing: 2 });
      if (s.indices.length === 0) continue;
      expect(checkManifold(s.indices), `seed ${seed}`).toMatchObject({ closed: true, oriented: true });
      expect(signedVolume(s.positions, s.indices)).toBeGreaterThan(0);
    }
  });
});

describe("single-image inflation", () => {
  it.each(["teapot.png", "robot.png", "chair.png", "police_woman.png"])(
    "%s -> closed two-manifold, image proportions, 100 mm",
    async (name) => {
      const v = await loadView("front", fixture(name), 1024, true);
      const m = inflateSilhouette(v.mask, v.image.width, v.image.height, { cells: 128, maxTriangles: 2_000_000 });
      const rep = checkManifold(m.indices);
      expect(rep).toMatchObject({ closed: true, oriented: true, boundaryEdges: 0, nonManifoldEdges: 0 });
      expect(signedVolume(m.positions, m.indices)).toBeGreaterThan(0);
      const b = meshBounds(m.positions);
      const mb = maskBounds(v.mask, v.image.width, v.image.height)!;
      const imageAspect = (mb.x1 - mb.x0 + 1) / (mb.y1 - mb.y0 + 1);
      const meshAspect = (b.max[0] - b.min[0]) / (b.max[1] - b.min[1]);
      expect(Math.abs(meshAspect / imageAspect - 1)).toBeLessThan(0.03);
      expect(b.max[1] - b.min[1]).toBeCloseTo(100, 3);
      expect(b.min[1]).toBeCloseTo(0, 3);
      // Rounded, not flat: depth is a sizeable fraction of the width, front/back symmetric.
      expect(b.max[2] - b.min[2]).toBeGreaterThan(0.2 * (b.max[0] - b.min[0]));
      expect(b.max[2]).toBeCloseTo(-b.min[2], 3);
      expect(Math.min(...m.uvs)).toBeGreaterThanOrEqual(-0.01);
      expect(Math.max(...m.uvs)).toBeLessThanOrEqual(1.01);
    },
  );

  it("inflates a disc to (nearly) a sphere", () => {
    const m = inflateSilhouette(discMask(400, 150), 400, 400, { cells: 128, maxTriangles: 1e6 });
    const vol = signedVolume(m.positions, m.indices);
    expect(vol / ((4 / 3) * Math.PI * 50 ** 3)).toBeGreaterThan(0.9);
    expect(vol / ((4 / 3) * Math.PI * 50 ** 3)).toBeLessThan(1.05);
  });

  it("rounds the creases of the ball union but leaves a sphere as it is", () => {
    const n = 160;
    const disc = discMask(n, 60);
    const raw = inflateHeights(disc, n, n, 0, 0),
      smooth = inflateHeights(disc, n, n, 0, 6);
    let worst = 0;
    for (let p = 0; p < n * n; p++) if (disc[p]) worst = Math.max(worst, Math.abs(smooth[p]! - raw[p]!));
    expect(worst).toBeLessThan(0.6); // of a 60-cell radius
    // Where the arms of a plus meet, the union of balls has creases: the height's
    // Laplacian away from the outline (>= 12 cells in) spikes there; smoothing flattens it.
    const plus = new Uint8Array(n * n);
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++)
        plus[y * n + x] = (x >= 60 && x < 100 && y >= 10 && y < 150) || (y >= 60 && y < 100 && x >= 10 && x < 150) ? 1 : 0;
    const deep = (p: number) => {
      for (let dy = -12; dy <= 12; dy++) for (let dx = -12; dx <= 12; dx++) if (!plus[p + dy * n + dx]) return false;
      return true;
    };
    const maxLaplacian = (hts: Float32Array) => {
      let m = 0;
      for (let y = 12; y < n - 12; y++)
        for (let x = 12; x < n - 12; x++) {
          const p = y * n + x;
          if (deep(p)) m = Math.max(m, Math.abs(hts[p - 1]! + hts[p + 1]! + hts[p - n]! + hts[p + n]! - 4 * hts[p]!));
        }
      return m;
    };
    const rawCrease = maxLaplacian(inflateHeights(plus, n, n, 0, 0));
    expect(rawCrease).toBeGreaterThan(0.5);
    expect(maxLaplacian(inflateHeights(plus, n, n, 0, 0.02 * n))).toBeLessThan(0.3 * rawCrease);
  });

  it("never exceeds the triangle budget", () => {
    const m = inflateSilhouette(discMask(400, 190), 400, 400, { cells: 192, maxTriangles: 20_000 });
    expect(m.indices.length / 3).toBeLessThanOrEqual(20_000);
    expect(checkManifold(m.indices).closed).toBe(true);
  });

  it("maps resolution to grid size", () => {
    expect(gridCellsFor("512")).toBe(128);
    expect(gridCellsFor("1024")).toBe(192);
    expect(gridCellsFor("1536pro")).toBe(256);
    expect(gridCellsFor("2048master")).toBe(320);
  });
});

describe("voxel surfaces", () => {
  it("random voxel sets made well-composed give closed, oriented surfaces of their exact volume", () => {
    for (let seed = 1; seed <= 10; seed++) {
      const n = 14;
      const occ = new Uint8Array(n * n * n);
      let s = seed;
      for (let z = 1; z < n - 1; z++)
        for (let y = 1; y < n - 1; y++)
          for (let x = 1; x < n - 1; x++) {
            s = (s * 1103515245 + 12345) & 0x7fffffff;
            occ[(z * n + y) * n + x] = s % 100 < 45 ? 1 : 0;
          }
      makeWellComposed(occ, n, n, n);
      const surf = voxelSurface(occ, n, n, n, 1e7)!;
      expect(checkManifold(surf.indices), `seed ${seed}`).toMatchObject({ closed: true, oriented: true });
      expect(signedVolume(surf.positions, surf.indices)).toBeCloseTo(
        occ.reduce((a, b) => a + b, 0),
        6,
      );
    }
  });
});

describe("visual hull", () => {
  const N = 300;
  const disc = discMask(N, 120);
  const sphereVolume = (4 / 3) * Math.PI * 50 ** 3;

  /** Silhouettes of a known solid, 3 px per mm, 100 mm tall, bottom at row 350. */
  const profileMask = (halfWidthMm: (yMm: number) => number, mirror = false) => {
    const W = 400,
      m = new Uint8Array(W * W);
    for (let row = 50; row < 350; row++) {
      const y = (350 - row - 0.5) / 3;
      const r = halfWidthMm(y) * 3;
      for (let x = 0; x < W; x++) {
        const dx = (mirror ? W - 1 - x : x) + 0.5 - W / 2;
        if (Math.abs(dx) <= r) m[row * W + x] = 1;
      }
    }
    return { mask: m, width: W, height: W };
  };

  it("reconstructs a known solid from four views within 1% of its volume (measured: 0.2%)", () => {
    // The solid: at height y a rectangle |x| <= r(y), |z| <= q(y) (so its own visual hull).
    const r = (y: number) => 30 + 12 * Math.sin((Math.PI * y) / 100);
    const q = (y: number) => 18 + 8 * Math.cos((Math.PI * y) / 50);
    let exact = 0;
    for (let i = 0; i < 100_000; i++) {
      const y = (i + 0.5) / 1000;
      exact += 4 * r(y) * q(y) * 0.001;
    }
    const views = [
      { view: "front" as const, ...profileMask(r) },
      { view: "back" as const, ...profileMask(r, true) },
      { view: "left" as const, ...profileMask(q) },
      { view: "right" as const, ...profileMask(q, true) },
    ];
    const h = visualHull(views, { cells: 160, maxTriangles: Infinity });
    expect(checkManifold(h.indices)).toMatchObject({ closed: true, oriented: true });
    const err = signedVolume(h.positions, h.indices) / exact - 1;
    expect(Math.abs(err)).toBeLessThan(0.01);
  });

  it("of sphere silhouettes from four views is the sphere's visual hull (the Steinmetz solid, within 1%; measured: 0.3%)", () => {
    const views = (["front", "back", "left", "right"] as const).map((view) => ({ view, mask: disc, width: N, height: N }));
    const h = visualHull(views, { cells: 128, maxTriangles: 1e7 });
    expect(checkManifold(h.indices)).toMatchObject({ closed: true, oriented: true });
    const vol = signedVolume(h.positions, h.indices);
    expect(Math.abs(vol / ((16 / 3) * 50 ** 3) - 1)).toBeLessThan(0.01);
    expect(vol).toBeGreaterThan(sphereVolume);
  });

  it("carves the depth from a narrower side view", () => {
    // Side view: an ellipse half as wide as tall.
    const side = new Uint8Array(N * N);
    for (let y = 0; y < N; y++)
      for (let x = 0; x < N; x++) side[y * N + x] = ((x + 0.5 - N / 2) / 60) ** 2 + ((y + 0.5 - N / 2) / 120) ** 2 <= 1 ? 1 : 0;
    const h = visualHull(
      [
        { view: "front", mask: disc, width: N, height: N },
        { view: "left", mask: side, width: N, height: N },
      ],
      { cells: 96, maxTriangles: 1e6 },
    );
    const b = meshBounds(h.positions);
    expect(b.max[2] - b.min[2]).toBeGreaterThan(42);
    expect(b.max[2] - b.min[2]).toBeLessThan(56);
    expect(b.max[0] - b.min[0]).toBeGreaterThan(92);
    expect(checkManifold(h.indices).closed).toBe(true);
  });
});

describe("image-to-3d scenes", () => {
  it.each([100_000, 500_000])("hits face = %i within a tenth, closed and 100 mm tall", async (face) => {
    const v = await loadView("front", fixture("robot.png"), 1024, true);
    const s = await sceneFromViews([v], { cells: 128, face, textured: false, pbr: false, shading: 0 });
    const part = s.parts[0]!;
    expect(Math.abs(part.indices.length / 3 / face - 1)).toBeLessThanOrEqual(0.1);
    expect(checkManifold(part.indices)).toMatchObject({ closed: true, oriented: true });
    const b = meshBounds(part.positions);
    expect(b.max[1] - b.min[1]).toBeCloseTo(100, 3);
    expect(b.min[1]).toBeCloseTo(0, 4);
  });

  it("request_type 3 has uvs and a texture (pbr adds metallicRoughness); request_type 1 neither", async () => {
    const v = await loadView("front", fixture("robot.png"), 1024, true);
    const s = await sceneFromViews([v], { cells: 96, face: 100_000, textured: true, pbr: true, shading: 0 });
    const part = s.parts[0]!;
    expect(part.uvs?.length).toBe((part.positions.length / 3) * 2);
    expect(part.material?.baseColorTexture?.width).toBe(1024);
    expect(part.material?.metallicRoughnessTexture).toBeDefined();
    expect(part.material?.normalTexture).toBeDefined();
    const geo = await sceneFromViews([v], { cells: 96, face: 100_000, textured: false, pbr: false, shading: 0 });
    expect(geo.parts[0]!.uvs).toBeUndefined();
    expect(geo.parts[0]!.material).toBeUndefined();
  });

  it("multi-view from images gives a closed mesh at the face target", async () => {
    const views = await Promise.all((["front", "left"] as const).map((view) => loadView(view, fixture("teapot.png"), 512, true)));
    const s = await sceneFromViews(views, { cells: 96, face: 100_000, textured: true, pbr: false, shading: 0 });
    // Texture seams duplicate vertices; welded by position the mesh is closed.
    expect(checkManifold(weldScene(s).indices)).toMatchObject({ closed: true, oriented: true });
    expect(Math.abs(s.parts[0]!.indices.length / 3 / 100_000 - 1)).toBeLessThanOrEqual(0.1);
  });
  it("request_type 2 keeps the geometry, parts and triangles and adds uvs + one texture", async () => {
    const v = await loadView("front", fixture("teapot.png"), 512, true);
    const a = uvSphere(30),
      b = { ...uvSphere(10, 12, 24, [0, 45, 0]), name: "lid" };
    const s = textureExistingScene(textureInput(sceneOf(a, b)), [v], { pbr: false, shading: 0, atlasSize: 512 });
    expect(s.parts.map((p) => p.name)).toEqual(["sphere", "lid"]);
    for (const [i, src] of [a, b].entries()) {
      const p = s.parts[i]!;
      expect(p.indices.length).toBe(src.indices.length);
      // Same triangles: every output corner sits where the input corner was.
      for (let k = 0; k < p.indices.length; k++) {
        for (let c = 0; c < 3; c++) expect(p.positions[p.indices[k]! * 3 + c]).toBe(src.positions[src.indices[k]! * 3 + c]);
      }
      expect(p.uvs!.length).toBe((p.positions.length / 3) * 2);
      expect(p.material?.baseColorTexture?.width).toBe(512);
    }
    expect(s.parts[0]!.material).toBe(s.parts[1]!.material);
  });
  it("request_type 2 of an unwelded mesh (as STL stores it) shares vertices: smooth and about a sixth of the size", async () => {
    const v = await loadView("front", fixture("teapot.png"), 256, true);
    const sphere = uvSphere(30, 48, 96);
    const flat = new Float32Array(sphere.indices.length * 3);
    sphere.indices.forEach((k, i) => flat.set(sphere.positions.subarray(k * 3, k * 3 + 3), i * 3));
    const unwelded = { name: "scan", positions: flat, indices: Uint32Array.from({ length: sphere.indices.length }, (_, i) => i) };
    const s = textureExistingScene(textureInput(sceneOf(unwelded)), [v], { pbr: false, shading: 0, atlasSize: 256 });
    const p = s.parts[0]!;
    expect(p.indices.length).toBe(unwelded.indices.length);
    for (let k = 0; k < p.indices.length; k++) {
      for (let c = 0; c < 3; c++) expect(p.positions[p.indices[k]! * 3 + c]).toBe(flat[k * 3 + c]);
    }
    // One vertex per point plus the chart seam's copies, not one per corner.
    expect(p.positions.length / 3).toBeLessThan((sphere.positions.length / 3) * 1.25);
    // Smooth: every corner at one point has the same normal (unwelded, each had its face's).
    const seen = new Map<string, number>();
    let worst = 0;
    for (const k of p.indices) {
      const key = Array.from(p.positions.subarray(k * 3, k * 3 + 3)).join();
      const first = seen.get(key);
      if (first === undefined) seen.set(key, k);
      else for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(p.normals![k * 3 + c]! - p.normals![first * 3 + c]!));
    }
    expect(worst).toBeLessThan(1e-6);
  });
});
