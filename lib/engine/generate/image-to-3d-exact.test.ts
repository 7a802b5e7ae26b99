// image-to-3d.ts pinned on tiny inputs: the resolution tables, normaliseHeight on three points, loadView on
// 16 x 16 PNGs, the part split of textureExistingScene on a hand-built quad + triangle, and the grid plans,
// builder arguments and branches of geometryFromViews / sceneFromViews / buildImageTo3DScene (spied modules).
import { writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { MeshPart } from "@/lib/engine/mesh/types";
import { tempDir } from "@/test/harness/temp-dir";
import { InputContentError } from "./errors";
import { type GridPlan, type IndexedMesh, meshForTarget } from "./face-target";
import {
  buildImageTo3DScene,
  geometryFromViews,
  gridCellsFor,
  imageSizeFor,
  type LoadedView,
  loadView,
  MODEL_HEIGHT_MM,
  normaliseHeight,
  sceneFromViews,
  type TextureInput,
  textureExistingScene,
  textureInput,
} from "./image-to-3d";
import { inflateSilhouette } from "./inflate";
import type { ImageTo3DJob } from "./job";
import { vertexNormals } from "./mesh-ops";
import { textureMesh } from "./texture";
import { visualHull } from "./visual-hull";
import { synthImage } from "./generate.test-helpers";

// The builders and the planner are the real ones, wrapped so their arguments can be read (and, where the
// real work would be heavy, replaced once).
vi.mock("./face-target", async (importOriginal) => {
  const m = await importOriginal<typeof import("./face-target")>();
  return { ...m, meshForTarget: vi.fn(m.meshForTarget) };
});
vi.mock("./inflate", async (importOriginal) => {
  const m = await importOriginal<typeof import("./inflate")>();
  return { ...m, inflateSilhouette: vi.fn(m.inflateSilhouette) };
});
vi.mock("./visual-hull", async (importOriginal) => {
  const m = await importOriginal<typeof import("./visual-hull")>();
  return { ...m, visualHull: vi.fn(m.visualHull) };
});
vi.mock("./texture", async (importOriginal) => {
  const m = await importOriginal<typeof import("./texture")>();
  return { ...m, textureMesh: vi.fn(m.textureMesh) };
});

const planner = vi.mocked(meshForTarget);
const inflate = vi.mocked(inflateSilhouette);
const hull = vi.mocked(visualHull);
const texture = vi.mocked(textureMesh);

// Reset, not just cleared: a once-stub a failing test left unused must not reach the next test; the
// real implementation comes back.
beforeEach(() => {
  planner.mockReset();
  inflate.mockReset();
  hull.mockReset();
  texture.mockReset();
});

const dir = tempDir("image-to-3d-exact");

/** A w x h PNG, white with a grey square [x0, x1) x [y0, y1) of grey level `grey`; returns its path. */
async function squarePng(name: string, w: number, h: number, sq: [number, number, number, number], grey: number): Promise<string> {
  const [x0, x1, y0, y1] = sq;
  const raw = Buffer.alloc(w * h * 3, 255);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) raw.fill(grey, (y * w + x) * 3, (y * w + x) * 3 + 3);
  const file = path.join(dir, `${name}.png`);
  await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toFile(file);
  return file;
}

/** A w x h mask, 1 inside [x0, x1) x [y0, y1). */
function rectMask(w: number, h: number, x0: number, x1: number, y0: number, y1: number): Uint8Array {
  const m = new Uint8Array(w * h);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) m[y * w + x] = 1;
  return m;
}

/** A loaded view built by hand: a w x h (default 16 x 16) white image, grey where the mask is. */
function handView(view: LoadedView["view"], mask: Uint8Array, w = 16, h = 16): LoadedView {
  return { view, image: synthImage(w, h, [255, 255, 255], (x, y) => (mask[y * w + x] ? [90, 90, 90] : null)), mask };
}

/** The unit corner tetrahedron, outward CCW (a fresh copy each call: normaliseHeight works in place). */
const tetra = (): IndexedMesh => ({
  positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
  indices: Uint32Array.from([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]),
});
/** The planner replaced for its next call: records the plan and target, builds once at `buildAt` cells, answers a fresh tetrahedron. */
function stubPlannerOnce(buildAt?: number): { plan?: GridPlan; target?: number; built?: IndexedMesh } {
  const seen: { plan?: GridPlan; target?: number; built?: IndexedMesh } = {};
  planner.mockImplementationOnce(async (build, plan, target) => {
    Object.assign(seen, { plan, target, built: buildAt === undefined ? undefined : build(buildAt) });
    return tetra();
  });
  return seen;
}
// The tetrahedron normalised: box [0, 1]^3, so s = 100 / 1, centre x = z = 0.5; y from 0.
const TETRA_NORMALISED = [-50, 0, -50, 50, 0, -50, -50, 100, -50, -50, 0, 50];

describe("resolution tables", () => {
  it("grid cells and working image size per resolution (DETAIL by RESOLUTION_INFO's size)", () => {
    const all = ["512", "1024", "1536", "1536fast", "1536pro", "1536profast", "2048quality", "2048master"] as const;
    // size 512 -> 128 / 1024, 1024 -> 192 / 1024, 1536 -> 256 / 2048, 2048 -> 320 / 2048.
    expect(all.map((r) => gridCellsFor(r))).toEqual([128, 192, 256, 256, 256, 256, 320, 320]);
    expect(all.map((r) => imageSizeFor(r))).toEqual([1024, 1024, 2048, 2048, 2048, 2048, 2048, 2048]);
    expect(MODEL_HEIGHT_MM).toBe(100);
  });
});

describe("normaliseHeight", () => {
  it("scales about the bottom centre to 100 mm tall, bottom at y = 0", () => {
    // Box x [1, 5], y [2, 6], z [-1, 7]: s = 100 / 4 = 25, centre x = 3, z = 3, bottom y = 2.
    const p = new Float32Array([1, 2, 3, 5, 6, -1, 3, 4, 7]);
    normaliseHeight(p);
    expect(Array.from(p)).toEqual([-50, 0, 0, 50, 100, -100, 0, 50, 100]);
  });

  it("a flat set (zero height) divides by 1e-9, not by zero", () => {
    // Height 0: s = 100 / 1e-9 = 1e11; centre x = 1, z = 2.
    const p = new Float32Array([0, 5, 0, 2, 5, 4]);
    normaliseHeight(p);
    const f = Math.fround;
    expect(Array.from(p)).toEqual([f(-1e11), 0, f(-2e11), f(1e11), 0, f(2e11)]);
  });
});

describe("loadView", () => {
  it("decodes at most maxSide on the longer side and masks the subject with rmbg (tolerance 0.06)", async () => {
    // Grey 239 on white: distance 16 / 255 = 0.0627 > 0.06, the subject.
    const file = await squarePng("sq239", 16, 16, [4, 12, 2, 10], 239);
    const v = await loadView("left", file, 32, true);
    expect(v.view).toBe("left");
    expect([v.image.width, v.image.height]).toEqual([16, 16]);
    expect(Array.from(v.mask)).toEqual(Array.from(rectMask(16, 16, 4, 12, 2, 10)));
    // Grey 240: distance 15 / 255 = 0.0588 <= 0.06, background: nothing left, so the whole frame.
    const pale = await loadView("front", await squarePng("sq240", 16, 16, [4, 12, 2, 10], 240), 32, true);
    expect(Array.from(pale.mask)).toEqual(new Array(256).fill(1));
  });

  it("without rmbg the mask is the whole frame; maxSide 8 halves a 16 x 16 image", async () => {
    const file = await squarePng("sq90", 16, 16, [4, 12, 2, 10], 90);
    const v = await loadView("front", file, 16, false);
    expect(Array.from(v.mask)).toEqual(new Array(256).fill(1));
    const small = await loadView("front", file, 8, true);
    expect([small.image.width, small.image.height, small.mask.length]).toEqual([8, 8, 64]);
  });
});

describe("textureInput", () => {
  it("welds the parts into one mesh, keeps part names and triangle counts, and the scene's box", () => {
    // A quad (two coplanar triangles) and a triangle sharing its edge (10,0,0)-(10,10,0), all facing +z:
    // one smoothing group, so equal positions become one vertex: 5 vertices.
    const quad: MeshPart = {
      name: "quad",
      positions: new Float32Array([0, 0, 0, 10, 0, 0, 0, 10, 0, 10, 10, 0]),
      indices: Uint32Array.from([0, 1, 3, 0, 3, 2]),
    };
    const tri: MeshPart = {
      name: "tri",
      positions: new Float32Array([10, 0, 0, 20, 0, 5, 10, 10, 0, 99, 99, 99]),
      indices: Uint32Array.from([0, 1, 2]),
    };
    const t = textureInput({ parts: [quad, tri] });
    expect(t.parts).toEqual([
      { name: "quad", triangles: 2 },
      { name: "tri", triangles: 1 },
    ]);
    // The box counts every position of the scene, the unused (99, 99, 99) too.
    expect(t.bounds).toEqual({ min: [0, 0, 0], max: [99, 99, 99] });
    expect(t.indices.length).toBe(9);
    const corner = (k: number) => Array.from(t.positions.subarray(t.indices[k]! * 3, t.indices[k]! * 3 + 3));
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map(corner)).toEqual([
      [0, 0, 0],
      [10, 0, 0],
      [10, 10, 0],
      [0, 0, 0],
      [10, 10, 0],
      [0, 10, 0],
      [10, 0, 0],
      [20, 0, 5],
      [10, 10, 0],
    ]);
  });
});

/** p0 (0,0,0), p1 (10,0,0), p2 (0,10,0), p3 (10,10,0), p4 (20,0,0): a quad 3-2-0 / 3-0-1 and a triangle 1-4-3, all facing +z. */
const QUAD_TRI_POSITIONS = new Float32Array([0, 0, 0, 10, 0, 0, 0, 10, 0, 10, 10, 0, 20, 0, 0]);
const FRONT = handView("front", rectMask(16, 16, 2, 14, 2, 14));
const OPTS = { pbr: false, shading: 0, atlasSize: 16 };

describe("textureExistingScene", () => {
  it("cuts the one textured mesh back into its parts, each renumbered in first-use order", () => {
    // The box is wider than the mesh: the views are fitted to it, not to the mesh's own box.
    const input: TextureInput = {
      positions: QUAD_TRI_POSITIONS,
      indices: Uint32Array.from([3, 2, 0, 3, 0, 1, 1, 4, 3]),
      parts: [
        { name: "quad", triangles: 2 },
        { name: "tri", triangles: 1 },
      ],
      bounds: { min: [-10, -10, -5], max: [30, 20, 5] },
    };
    const s = textureExistingScene(input, [FRONT], OPTS);
    const all = textureMesh(input.positions, input.indices, [FRONT], { ...OPTS, bounds: input.bounds });
    expect(all.positions.length).toBe(15); // one chart, no seam copies
    expect(s.parts.map((p) => p.name)).toEqual(["quad", "tri"]);
    const [quad, tri] = s.parts as [MeshPart, MeshPart];
    // quad uses 3, 2, 0, 1 in that order -> 0, 1, 2, 3; tri uses 1, 4, 3 -> 0, 1, 2.
    expect(Array.from(quad.indices)).toEqual([0, 1, 2, 0, 2, 3]);
    expect(Array.from(quad.positions)).toEqual([10, 10, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0]);
    expect(Array.from(tri.indices)).toEqual([0, 1, 2]);
    expect(Array.from(tri.positions)).toEqual([10, 0, 0, 20, 0, 0, 10, 10, 0]);
    // Flat, facing +z: every normal (0, 0, 1).
    expect(Array.from(quad.normals!)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
    expect(Array.from(tri.normals!)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1]);
    // uvs are the whole mesh's, picked for the used vertices.
    const uv = (v: number) => Array.from(all.uvs.subarray(v * 2, v * 2 + 2));
    expect(Array.from(quad.uvs!)).toEqual([3, 2, 0, 1].flatMap(uv));
    expect(Array.from(tri.uvs!)).toEqual([1, 4, 3].flatMap(uv));
    expect(quad.material).toBe(tri.material);
    expect(quad.material).toEqual(all.material);
    // Fitted to the given box: the mesh's own box would place the uvs elsewhere.
    const own = textureMesh(input.positions, input.indices, [FRONT], OPTS);
    expect(Array.from(own.uvs)).not.toEqual(Array.from(all.uvs));
    expect(texture).toHaveBeenCalledWith(input.positions, input.indices, [FRONT], { ...OPTS, bounds: input.bounds });
  });

  it("one part is the textured mesh as it is (vertex order kept), under the part's name", () => {
    const input: TextureInput = {
      positions: QUAD_TRI_POSITIONS.slice(0, 12),
      indices: Uint32Array.from([3, 2, 0, 3, 0, 1]),
      parts: [{ name: "only", triangles: 2 }],
      bounds: { min: [0, 0, 0], max: [10, 10, 0] },
    };
    const s = textureExistingScene(input, [FRONT], OPTS);
    const all = textureMesh(input.positions, input.indices, [FRONT], { ...OPTS, bounds: input.bounds });
    expect(s.parts.length).toBe(1);
    const p = s.parts[0]!;
    expect(p.name).toBe("only");
    expect(Array.from(p.indices)).toEqual([3, 2, 0, 3, 0, 1]);
    expect(Array.from(p.positions)).toEqual([0, 0, 0, 10, 0, 0, 0, 10, 0, 10, 10, 0]);
    expect(Array.from(p.uvs!)).toEqual(Array.from(all.uvs));
    expect(p.material).toEqual(all.material);
  });
});

describe("geometryFromViews", () => {
  const square = rectMask(16, 16, 4, 12, 2, 14);
  const side = rectMask(16, 16, 6, 10, 2, 14);

  it("needs the front view, alone or among others", async () => {
    await expect(geometryFromViews([handView("left", side)], { cells: 30, face: 1000 })).rejects.toThrow(
      new InputContentError("the front view is required"),
    );
    await expect(geometryFromViews([handView("left", side), handView("back", side)], { cells: 30, face: 1000 })).rejects.toThrow(
      "the front view is required",
    );
    expect(planner).not.toHaveBeenCalled();
  });

  it("one view: inflation, plan cells, max(24, cells / 2) .. min(640, 1.6 cells), then normalised", async () => {
    const seen = stubPlannerOnce(12);
    const front = handView("front", square);
    const m = await geometryFromViews([front], { cells: 100, face: 5000 });
    // 100 -> min 50, max 160.
    expect(seen.plan).toEqual({ cells: 100, minCells: 50, maxCells: 160 });
    expect(seen.target).toBe(5000);
    expect(inflate).toHaveBeenCalledTimes(1);
    expect(inflate).toHaveBeenCalledWith(square, 16, 16, { cells: 12, maxTriangles: Infinity, heightMm: 100 });
    expect(inflate.mock.calls[0]![0]).toBe(front.mask);
    expect(seen.built).toBe(inflate.mock.results[0]!.value);
    expect(hull).not.toHaveBeenCalled();
    expect(Array.from(m.positions)).toEqual(TETRA_NORMALISED);
    expect(Array.from(m.indices)).toEqual([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
  });

  it("one view: cells capped at 640; small grids keep at least 24", async () => {
    const front = handView("front", square);
    const plans: (GridPlan | undefined)[] = [];
    for (const cells of [1000, 640, 30, 47, 49]) {
      const seen = stubPlannerOnce();
      await geometryFromViews([front], { cells, face: 1000 });
      plans.push(seen.plan);
    }
    expect(plans).toEqual([
      { cells: 640, minCells: 320, maxCells: 640 }, // 1000 -> 640; 1.6 * 640 > 640
      { cells: 640, minCells: 320, maxCells: 640 },
      { cells: 30, minCells: 24, maxCells: 48 }, // 15 < 24
      { cells: 47, minCells: 24, maxCells: 75 }, // round(23.5) = 24, round(75.2) = 75
      { cells: 49, minCells: 25, maxCells: 78 }, // round(24.5) = 25, round(78.4) = 78
    ]);
  });

  it("several views: the visual hull of all of them, cells capped at 224", async () => {
    // The side image is 12 wide, 16 tall: each silhouette keeps its own size.
    const narrow = rectMask(12, 16, 4, 8, 2, 14);
    const left = handView("left", narrow, 12, 16),
      front = handView("front", square);
    const first = stubPlannerOnce(12);
    const m = await geometryFromViews([left, front], { cells: 100, face: 7000 });
    const plans: (GridPlan | undefined)[] = [first.plan];
    for (const cells of [1000, 224, 140]) {
      const seen = stubPlannerOnce();
      await geometryFromViews([front, left], { cells, face: 7000 });
      plans.push(seen.plan);
    }
    expect(plans).toEqual([
      { cells: 100, minCells: 50, maxCells: 160 },
      { cells: 224, minCells: 112, maxCells: 224 }, // 1000 -> 224
      { cells: 224, minCells: 112, maxCells: 224 },
      { cells: 140, minCells: 70, maxCells: 224 }, // 1.6 * 140 = 224
    ]);
    expect(first.target).toBe(7000);
    expect(inflate).not.toHaveBeenCalled();
    expect(hull).toHaveBeenCalledTimes(1);
    expect(hull).toHaveBeenCalledWith(
      [
        { view: "left", mask: narrow, width: 12, height: 16 },
        { view: "front", mask: square, width: 16, height: 16 },
      ],
      { cells: 12, maxTriangles: Infinity, heightMm: 100 },
    );
    expect(first.built).toBe(hull.mock.results[0]!.value);
    expect(Array.from(m.positions)).toEqual(TETRA_NORMALISED);
  });

  it("the real planner and inflation: 100 mm tall from y = 0, centred in x and z", async () => {
    const m = await geometryFromViews([handView("front", square)], { cells: 24, face: 2000 });
    // Plan 24 .. 38 (round(38.4)); the first grid tried is the plan's own.
    expect(inflate.mock.calls[0]![3].cells).toBe(24);
    expect(inflate.mock.calls.every((c) => c[3].cells >= 24 && c[3].cells <= 38)).toBe(true);
    let x0 = Infinity,
      x1 = -Infinity,
      y0 = Infinity,
      y1 = -Infinity,
      z0 = Infinity,
      z1 = -Infinity;
    for (let i = 0; i < m.positions.length; i += 3) {
      x0 = Math.min(x0, m.positions[i]!);
      x1 = Math.max(x1, m.positions[i]!);
      y0 = Math.min(y0, m.positions[i + 1]!);
      y1 = Math.max(y1, m.positions[i + 1]!);
      z0 = Math.min(z0, m.positions[i + 2]!);
      z1 = Math.max(z1, m.positions[i + 2]!);
    }
    expect(y0).toBe(0);
    expect(y1).toBeCloseTo(100, 4);
    expect(x0 + x1).toBeCloseTo(0, 4);
    expect(z0 + z1).toBeCloseTo(0, 4);
    // The square is 8 x 12 pixels: the model is (at most a cell's rounding off) 8 / 12 as wide as tall.
    expect((x1 - x0) / 100).toBeCloseTo(8 / 12, 1);
  });
});

/** Area-weighted unit normals of TETRA_NORMALISED, by hand: the faces' cross products are (0, 0, -1e4),
 * (0, -1e4, 0), (-1e4, 0, 0) and (1e4, 1e4, 1e4); vertex 0 sums the first three, each other vertex two
 * of them and the slanted face, leaving one axis. */
const R3 = 1 / Math.sqrt(3);
const TETRA_NORMALS = [-R3, -R3, -R3, 1, 0, 0, 0, 1, 0, 0, 0, 1];
const closeTo = (a: ArrayLike<number>, b: number[], digits: number) => {
  expect(a.length).toBe(b.length);
  b.forEach((x, i) => expect(a[i]).toBeCloseTo(x, digits));
};
/** What a stubbed textureMesh answers: the mesh as given, normals and uvs counting up, a named material. */
const stubMaterial = {
  name: "stub",
  baseColorFactor: [1, 1, 1, 1] as [number, number, number, number],
  metallicFactor: 0,
  roughnessFactor: 1,
};
function stubTextureOnce(): void {
  texture.mockImplementationOnce((positions, indices) => ({
    name: "stubbed",
    positions,
    indices,
    normals: Float32Array.from(positions, (_, i) => 100 + i),
    uvs: Float32Array.from({ length: (positions.length / 3) * 2 }, (_, i) => 1000 + i),
    material: stubMaterial,
  }));
}

describe("sceneFromViews", () => {
  const front = handView("front", rectMask(16, 16, 4, 12, 2, 14));

  it("untextured: one part 'model' of positions, indices and vertex normals only", async () => {
    const seen = stubPlannerOnce();
    const s = await sceneFromViews([front], { cells: 40, face: 3000, textured: false, pbr: true, shading: 0.5, atlasSize: 16 });
    expect(seen.plan).toEqual({ cells: 40, minCells: 24, maxCells: 64 });
    expect(seen.target).toBe(3000);
    expect(s.parts.length).toBe(1);
    const p = s.parts[0]!;
    expect(Object.keys(p).sort()).toEqual(["indices", "name", "normals", "positions"]);
    expect(p.name).toBe("model");
    expect(Array.from(p.positions)).toEqual(TETRA_NORMALISED);
    expect(Array.from(p.indices)).toEqual([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
    closeTo(p.normals!, TETRA_NORMALS, 6);
    expect(Array.from(p.normals!)).toEqual(Array.from(vertexNormals(p.positions, p.indices)));
    expect(texture).not.toHaveBeenCalled();
  });

  it("textured: textureMesh over the normalised geometry with pbr, shading and the atlas size", async () => {
    stubPlannerOnce();
    const s = await sceneFromViews([front], { cells: 40, face: 3000, textured: true, pbr: true, shading: 0.5, atlasSize: 16 });
    expect(texture).toHaveBeenCalledTimes(1);
    const [pos, idx, views, opts] = texture.mock.calls[0]!;
    expect(Array.from(pos)).toEqual(TETRA_NORMALISED);
    expect(Array.from(idx)).toEqual([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
    expect(views).toEqual([front]);
    expect(opts).toEqual({ pbr: true, shading: 0.5, atlasSize: 16 });
    expect(s.parts).toEqual([texture.mock.results[0]!.value]);
    expect(s.parts[0]).toBe(texture.mock.results[0]!.value);
    expect(s.parts[0]!.uvs!.length).toBe(8);
    expect(s.parts[0]!.material!.baseColorTexture!.width).toBe(16);
  });

  it("textured without an atlas size: 1024", async () => {
    stubPlannerOnce();
    stubTextureOnce();
    const s = await sceneFromViews([front], { cells: 40, face: 3000, textured: true, pbr: false, shading: 0 });
    expect(texture.mock.calls[0]![3]).toEqual({ pbr: false, shading: 0, atlasSize: 1024 });
    expect(s.parts[0]!.name).toBe("stubbed");
  });
});

describe("buildImageTo3DScene", () => {
  const pngs = {
    // 1100 x 20, white, grey 90 in x [100, 300), y [5, 15): over 1024 wide, under 2048.
    wide: squarePng("wide", 1100, 20, [100, 300, 5, 15], 90),
  };
  const job = async (over: Partial<ImageTo3DJob>): Promise<ImageTo3DJob> => ({
    kind: "image-to-3d",
    images: [{ view: "front", path: await pngs.wide }],
    requestType: 1,
    model: "x3dv3.0",
    resolution: "512",
    face: 123_456,
    pbr: false,
    rmbg: true,
    shading: 0,
    format: 2,
    ...over,
  });

  it("needs the front view before reading any image", async () => {
    await expect(buildImageTo3DScene(await job({ images: [{ view: "left", path: path.join(dir, "missing.png") }] }))).rejects.toThrow(
      new InputContentError("the front view is required"),
    );
  });

  it("request_type 2 needs a mesh", async () => {
    await expect(buildImageTo3DScene(await job({ requestType: 2 }))).rejects.toThrow(new InputContentError("request_type 2 needs a mesh"));
  });

  it("request_type 1 at 512: images at most 1024 across, grid 128 (plan 64 .. 205), the job's face, no texture", async () => {
    const seen = stubPlannerOnce(8);
    const s = await buildImageTo3DScene(await job({}));
    expect(seen.plan).toEqual({ cells: 128, minCells: 64, maxCells: 205 });
    expect(seen.target).toBe(123_456);
    // 1100 x 20 scaled by 1024 / 1100: 1024 x round(18.6) = 19.
    expect(inflate.mock.calls[0]!.slice(1)).toEqual([1024, 19, { cells: 8, maxTriangles: Infinity, heightMm: 100 }]);
    expect(texture).not.toHaveBeenCalled();
    expect(s.parts.map((p) => p.name)).toEqual(["model"]);
    expect(Array.from(s.parts[0]!.positions)).toEqual(TETRA_NORMALISED);
    expect(s.parts[0]!.uvs).toBeUndefined();
  });

  it("request_type 3 at 1536: images at most 2048 across (1100 kept), grid 256, rmbg as asked, atlas 2048", async () => {
    const masks: Uint8Array[] = [];
    for (const rmbg of [true, false]) {
      const seen = stubPlannerOnce();
      stubTextureOnce();
      const s = await buildImageTo3DScene(await job({ requestType: 3, resolution: "1536", rmbg, pbr: true, shading: 0.3 }));
      expect(seen.plan).toEqual({ cells: 256, minCells: 128, maxCells: 410 });
      expect(s.parts.map((p) => p.name)).toEqual(["stubbed"]);
      const [pos, , views, opts] = texture.mock.calls.at(-1)!;
      expect(Array.from(pos)).toEqual(TETRA_NORMALISED);
      expect(opts).toEqual({ pbr: true, shading: 0.3, atlasSize: 2048 });
      expect(views.map((v) => [v.view, v.image.width, v.image.height])).toEqual([["front", 1100, 20]]);
      masks.push(views[0]!.mask);
    }
    expect(Array.from(masks[0]!)).toEqual(Array.from(rectMask(1100, 20, 100, 300, 5, 15)));
    expect(Array.from(masks[1]!)).toEqual(new Array(22_000).fill(1));
  });

  it("every image is loaded under its own view: two views carve a hull, grid min(224, 256)", async () => {
    const side = await squarePng("side", 30, 20, [10, 20, 5, 15], 90);
    const seen = stubPlannerOnce();
    stubTextureOnce();
    await buildImageTo3DScene(
      await job({
        requestType: 3,
        resolution: "1536",
        images: [
          { view: "left", path: side },
          { view: "front", path: await pngs.wide },
        ],
      }),
    );
    expect(seen.plan).toEqual({ cells: 224, minCells: 112, maxCells: 224 });
    const views = texture.mock.calls[0]![2];
    expect(views.map((v) => [v.view, v.image.width, v.image.height])).toEqual([
      ["left", 30, 20],
      ["front", 1100, 20],
    ]);
    expect(Array.from(views[0]!.mask)).toEqual(Array.from(rectMask(30, 20, 10, 20, 5, 15)));
  });

  it("request_type 2: the mesh file's parts textured as one mesh (atlas = image size) and cut back", async () => {
    const obj = path.join(dir, "quad-tri.obj");
    writeFileSync(
      obj,
      ["o quad", "v 0 0 0", "v 10 0 0", "v 0 10 0", "v 10 10 0", "f 4 3 1", "f 4 1 2", "o tri", "v 20 0 0", "f 2 5 4", ""].join("\n"),
    );
    stubTextureOnce();
    const s = await buildImageTo3DScene(await job({ requestType: 2, meshPath: obj, resolution: "1024", pbr: true, shading: 0.7 }));
    expect(planner).not.toHaveBeenCalled();
    expect(texture).toHaveBeenCalledTimes(1);
    const [, idx, views, opts] = texture.mock.calls[0]!;
    expect(idx.length).toBe(9);
    expect(views.map((v) => [v.view, v.image.width, v.image.height])).toEqual([["front", 1024, 19]]);
    expect(opts).toEqual({ pbr: true, shading: 0.7, atlasSize: 1024, bounds: { min: [0, 0, 0], max: [20, 10, 0] } });
    expect(s.parts.map((p) => [p.name, Array.from(p.indices), Array.from(p.positions)])).toEqual([
      ["quad", [0, 1, 2, 0, 2, 3], [10, 10, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0]],
      ["tri", [0, 1, 2], [10, 0, 0, 20, 0, 0, 10, 10, 0]],
    ]);
    expect(s.parts.every((p) => p.material === stubMaterial)).toBe(true);
    // Normals and uvs (counting up in the welded mesh's order) follow their vertices into the parts.
    const all = texture.mock.results[0]!.value as MeshPart;
    let io = 0;
    for (const p of s.parts) {
      for (let k = 0; k < p.indices.length; k++) {
        const v = p.indices[k]!,
          w = all.indices[io + k]!;
        expect(Array.from(p.normals!.subarray(v * 3, v * 3 + 3))).toEqual(Array.from(all.normals!.subarray(w * 3, w * 3 + 3)));
        expect(Array.from(p.uvs!.subarray(v * 2, v * 2 + 2))).toEqual(Array.from(all.uvs!.subarray(w * 2, w * 2 + 2)));
      }
      io += p.indices.length;
    }
    expect(s.parts.map((p) => p.normals!.length / 3)).toEqual([4, 3]);
  });
});
