import { describe, expect, it } from "vitest";
import { buildGridSolid, regularizeGridMask } from "./grid-mesh";
import { gridCellsFor, loadView, sceneFromViews, textureExistingScene } from "./image-to-3d";
import { inflateSilhouette } from "./inflate";
import { maskBounds } from "./mask-ops";
import { checkManifold, meshBounds, signedVolume } from "./mesh-ops";
import { discMask, fixture, sceneOf, uvSphere } from "./testing";
import { makeWellComposed, visualHull, voxelSurface } from "./visual-hull";

function randomMask(w: number, h: number, seed: number, density: number): Uint8Array {
  const m = new Uint8Array(w * h);
  let s = seed;
  for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    m[y * w + x] = s % 1000 < density * 1000 ? 1 : 0;
  }
  return m;
}

describe("grid solids", () => {
  it("pillow and walled solids over random masks are closed, oriented two-manifolds", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const w = 24, h = 18;
      for (const sharedRim of [true, false]) {
        const mask = regularizeGridMask(randomMask(w, h, seed, 0.55), w, h, sharedRim);
        const nv = (w + 1) * (h + 1);
        const top = new Float32Array(nv).fill(2), bottom = new Float32Array(nv).fill(sharedRim ? -2 : 0);
        const s = buildGridSolid({ mask, gw: w, gh: h, top, bottom, sharedRim, rimSmoothing: 2 });
        if (s.indices.length === 0) continue;
        const rep = checkManifold(s.indices);
        expect(rep, `seed ${seed} sharedRim ${sharedRim}`).toMatchObject({ closed: true, oriented: true });
        expect(signedVolume(s.positions, s.indices)).toBeGreaterThan(0);
      }
    }
  });
});

describe("single-image inflation", () => {
  it.each(["teapot.png", "robot.png", "chair.png", "police_woman.png"])("%s -> closed two-manifold, image proportions, 100 mm", async (name) => {
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
  });

  it("inflates a disc to (nearly) a sphere", () => {
    const m = inflateSilhouette(discMask(400, 150), 400, 400, { cells: 128, maxTriangles: 1e6 });
    const vol = signedVolume(m.positions, m.indices);
    expect(vol / ((4 / 3) * Math.PI * 50 ** 3)).toBeGreaterThan(0.9);
    expect(vol / ((4 / 3) * Math.PI * 50 ** 3)).toBeLessThan(1.05);
  });

  it("never exceeds the triangle budget", () => {
    const m = inflateSilhouette(discMask(400, 190), 400, 400, { cells: 192, maxTriangles: 20_000 });
    expect(m.indices.length / 3).toBeLessThanOrEqual(20_000);
    expect(checkManifold(m.indices).closed).toBe(true);
  });

  it("maps resolution to grid size", () => {
    expect(gridCellsFor("512")).toBe(96);
    expect(gridCellsFor("1024")).toBe(128);
    expect(gridCellsFor("1536pro")).toBe(160);
    expect(gridCellsFor("2048master")).toBe(192);
  });
});

describe("voxel surfaces", () => {
  it("random voxel sets made well-composed give closed, oriented surfaces of their exact volume", () => {
    for (let seed = 1; seed <= 10; seed++) {
      const n = 14;
      const occ = new Uint8Array(n * n * n);
      let s = seed;
      for (let z = 1; z < n - 1; z++) for (let y = 1; y < n - 1; y++) for (let x = 1; x < n - 1; x++) {
        s = (s * 1103515245 + 12345) & 0x7fffffff;
        occ[(z * n + y) * n + x] = s % 100 < 45 ? 1 : 0;
      }
      makeWellComposed(occ, n, n, n);
      const surf = voxelSurface(occ, n, n, n, 1e7)!;
      expect(checkManifold(surf.indices), `seed ${seed}`).toMatchObject({ closed: true, oriented: true });
      expect(signedVolume(surf.positions, surf.indices)).toBeCloseTo(occ.reduce((a, b) => a + b, 0), 6);
    }
  });
});

describe("visual hull", () => {
  const N = 300;
  const disc = discMask(N, 120);
  const sphereVolume = (4 / 3) * Math.PI * 50 ** 3;

  it("of sphere silhouettes from four views has the sphere's volume (±15%)", () => {
    const views = (["front", "back", "left", "right"] as const).map((view) => ({ view, mask: disc, width: N, height: N }));
    const h = visualHull(views, { cells: 96, maxTriangles: 1e6 });
    expect(checkManifold(h.indices)).toMatchObject({ closed: true, oriented: true });
    const vol = signedVolume(h.positions, h.indices);
    expect(Math.abs(vol / sphereVolume - 1)).toBeLessThan(0.15);
  });

  it("carves the depth from a narrower side view", () => {
    // Side view: an ellipse half as wide as tall.
    const side = new Uint8Array(N * N);
    for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) side[y * N + x] = ((x + 0.5 - N / 2) / 60) ** 2 + ((y + 0.5 - N / 2) / 120) ** 2 <= 1 ? 1 : 0;
    const h = visualHull([{ view: "front", mask: disc, width: N, height: N }, { view: "left", mask: side, width: N, height: N }], { cells: 96, maxTriangles: 1e6 });
    const b = meshBounds(h.positions);
    expect(b.max[2] - b.min[2]).toBeGreaterThan(42);
    expect(b.max[2] - b.min[2]).toBeLessThan(56);
    expect(b.max[0] - b.min[0]).toBeGreaterThan(92);
    expect(checkManifold(h.indices).closed).toBe(true);
  });
});

describe("image-to-3d scenes", () => {
  it("request_type 3 has front-projected uvs and the front image as texture (pbr adds metallicRoughness)", async () => {
    const v = await loadView("front", fixture("robot.png"), 1024, true);
    const s = sceneFromViews([v], { cells: 96, maxTriangles: 500_000, textured: true, pbr: true });
    const part = s.parts[0]!;
    expect(part.uvs?.length).toBe((part.positions.length / 3) * 2);
    expect(part.material?.baseColorTexture?.width).toBe(v.image.width);
    expect(part.material?.metallicRoughnessTexture).toBeDefined();
    const geo = sceneFromViews([v], { cells: 96, maxTriangles: 500_000, textured: false, pbr: false });
    expect(geo.parts[0]!.uvs).toBeUndefined();
    expect(geo.parts[0]!.material).toBeUndefined();
  });

  it("multi-view from images gives a closed mesh", async () => {
    const views = await Promise.all((["front", "left"] as const).map((view) => loadView(view, fixture("teapot.png"), 512, true)));
    const s = sceneFromViews(views, { cells: 96, maxTriangles: 500_000, textured: true, pbr: false });
    expect(checkManifold(s.parts[0]!.indices).closed).toBe(true);
  });

  it("request_type 2 keeps the geometry and adds uvs + texture", async () => {
    const v = await loadView("front", fixture("teapot.png"), 512, true);
    const sphere = uvSphere(30);
    const s = textureExistingScene(sceneOf(sphere), v, false);
    const p = s.parts[0]!;
    expect(p.positions).toBe(sphere.positions);
    expect(p.indices).toBe(sphere.indices);
    expect(p.material?.baseColorTexture).toBeDefined();
    // The sphere's box maps onto the subject's box in the image.
    const mb = maskBounds(v.mask, v.image.width, v.image.height)!;
    let umin = Infinity, umax = -Infinity;
    for (let i = 0; i < p.uvs!.length; i += 2) { umin = Math.min(umin, p.uvs![i]!); umax = Math.max(umax, p.uvs![i]!); }
    expect(umin * v.image.width).toBeCloseTo(mb.x0, 0);
    expect(umax * v.image.width).toBeCloseTo(mb.x1 + 1, 0);
  });
});
