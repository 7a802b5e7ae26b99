import { writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { writeMesh } from "@/lib/engine/formats";
import { readMesh } from "@/lib/engine/formats/read-mesh";
import { InputContentError, InputDecodeError } from "./errors";
import { humanoid, sceneOfManifold } from "./humanoid.test-helpers";
import type { DepthJob, ImageTo3DJob, Job, JobResult } from "./job";
import { Arena, getManifold } from "./manifold";
import { checkManifold, meshBounds } from "./mesh-ops";
import { runJob } from "./run-job";
import { box, fixture, sceneOf, uvSphere } from "./generate.test-helpers";
import { tempDir } from "@/test/harness/temp-dir";

const dir = tempDir("generate");
const wasm = await getManifold();
const arena = new Arena();
afterAll(() => arena.free());
/** A character with every part: the primitive humanoid, hanging arms. */
const figure = sceneOfManifold(humanoid(wasm, arena, "hanging", 24)).parts[0]!;

const imageJob = (over: Partial<ImageTo3DJob> = {}): ImageTo3DJob => ({
  kind: "image-to-3d",
  images: [{ view: "front", path: fixture("robot.png") }],
  requestType: 3,
  model: "x3dv3.0",
  resolution: "2048quality",
  face: 2_000_000,
  pbr: true,
  rmbg: true,
  shading: 0.5,
  format: 2,
  ...over,
});
const depthJob = (over: Partial<DepthJob> = {}): DepthJob => ({
  kind: "depth",
  imagePath: fixture("teapot.png"),
  modelType: "pro",
  heightRelief: 1.3,
  rmbg: true,
  degreeRmbg: 0.02,
  shapeBase: 0,
  thicknessBase: 1,
  width: 40,
  sculpmode: 0,
  format: 2,
  ...over,
});

async function timed(job: Job): Promise<JobResult> {
  const t = performance.now();
  const r = await runJob(job);
  const ms = performance.now() - t;
  // Printed, not asserted: speed is measured by npm run bench:engine. A time limit here fails
  // under load, and under mutation testing would count a slower, correct mutant as caught.
  console.log(`${job.kind} ${"format" in job ? job.format : ""}: ${ms.toFixed(0)} ms, ${r.result.length} bytes .${r.resultExt}`);
  expect(r.result.length).toBeGreaterThan(100);
  expect(r.coverExt).toBe("png");
  const meta = await sharp(r.cover).metadata();
  expect(meta.format).toBe("png");
  return r;
}

async function writeGlb(name: string, ...parts: Parameters<typeof sceneOf>): Promise<string> {
  const path = join(dir, name);
  writeFileSync(path, (await writeMesh(sceneOf(...parts), 2)).bytes);
  return path;
}

describe("runJob", () => {
  it("image-to-3d, textured GLB, round-trips as a closed mesh", async () => {
    const r = await timed(imageJob());
    expect(r.resultExt).toBe("glb");
    const scene = await readMesh(r.result);
    expect(scene.parts[0]!.material?.baseColorTexture).toBeDefined();
    expect(checkManifold(scene.parts[0]!.indices).closed).toBe(true);
  });

  it("image-to-3d, geometry only, multi-view, STL", async () => {
    const r = await timed(
      imageJob({
        requestType: 1,
        format: 3,
        resolution: "1536pro",
        images: [
          { view: "front", path: fixture("teapot.png") },
          { view: "left", path: fixture("teapot.png") },
        ],
      }),
    );
    expect(r.resultExt).toBe("stl");
  });

  it("image-to-3d, request_type 2 textures the given GLB", async () => {
    const meshPath = await writeGlb("sphere.glb", uvSphere(30));
    const r = await timed(imageJob({ requestType: 2, meshPath, format: 2 }));
    const scene = await readMesh(r.result);
    expect(scene.parts[0]!.uvs).toBeDefined();
    expect(scene.parts[0]!.indices.length).toBe(uvSphere(30).indices.length);
  });

  // The texture task paints the given mesh: every triangle of the result is one of the input's, in
  // place (vertices may be split along UV seams, triangles reordered), for two different meshes.
  it.each([
    ["a sphere", () => uvSphere(30)],
    ["a box", () => box([-20, 0, -5], [20, 60, 5])],
  ] as const)("request_type 2 keeps the geometry of %s", async (name, make) => {
    const input = make();
    const meshPath = await writeGlb(`keep-${name.replace(/\W/g, "")}.glb`, input);
    const r = await runJob(imageJob({ requestType: 2, meshPath, format: 2 }));
    const parts = (await readMesh(r.result)).parts;
    const triangles = (positions: ArrayLike<number>, indices: ArrayLike<number>) => {
      const keys: string[] = [];
      for (let t = 0; t < indices.length; t += 3) {
        const corners = [0, 1, 2].map((k) => {
          const v = indices[t + k]! * 3;
          return [positions[v]!, positions[v + 1]!, positions[v + 2]!].map((x) => x.toFixed(3)).join(",");
        });
        keys.push(corners.sort().join(" "));
      }
      return keys.sort();
    };
    const got = parts.flatMap((p) => triangles(p.positions, p.indices)).sort();
    expect(got).toEqual(triangles(input.positions, input.indices));
  });

  it("depth as 16-bit PNG, EXR and BMP", async () => {
    const png = await timed(depthJob({ format: 2 }));
    const meta = await sharp(png.result).metadata();
    expect([png.resultExt, meta.width, meta.depth]).toEqual(["png", 2048, "ushort"]);
    expect((await timed(depthJob({ format: 1, modelType: "base" }))).resultExt).toBe("exr");
    expect((await timed(depthJob({ format: 6, modelType: "base", rmbg: false }))).resultExt).toBe("bmp");
  });

  // The relief's parameters reach the mesh through the job: width across, thickness_base plus
  // height_relief high (a square plate without rmbg; the teapot's brightest pixel reaches the top).
  it.each([
    [40, 1.3, 1],
    [120, 4, 2.5],
  ])("a relief %i mm wide, %f mm of relief on a %f mm base, measures so", async (width, heightRelief, thicknessBase) => {
    const { result } = await runJob(depthJob({ format: 3, rmbg: false, width, heightRelief, thicknessBase, shapeBase: 0 }));
    const b = meshBounds((await readMesh(result)).parts[0]!.positions);
    expect(b.max[0] - b.min[0]).toBeCloseTo(width, 3);
    expect(b.min[1]).toBeCloseTo(0, 5);
    expect(b.max[1]).toBeCloseTo(thicknessBase + heightRelief, 2);
  });

  it("depth relief as STL, GLB and 3MF", async () => {
    expect((await timed(depthJob({ format: 3 }))).resultExt).toBe("stl");
    const glb = await timed(depthJob({ format: 4, rmbg: false, shapeBase: 1, sculpmode: 1 }));
    expect(glb.resultExt).toBe("glb");
    expect(checkManifold((await readMesh(glb.result)).parts[0]!.indices).closed).toBe(true);
    expect((await timed(depthJob({ format: 5 }))).resultExt).toBe("3mf");
  });

  it("split and segmentation of a GLB", async () => {
    const meshPath = await writeGlb("character.glb", figure);
    const split = await timed({
      kind: "split",
      meshPath,
      model: "character",
      part: "a",
      joint: "ball",
      merge: true,
      level: "medium",
      format: 2,
    });
    expect((await readMesh(split.result)).parts.length).toBe(6);
    const spherePath = await writeGlb("sphere2.glb", uvSphere(40, 48, 96));
    const seg = await timed({ kind: "segmentation", meshPath: spherePath, segLevel: "high", format: 2 });
    expect((await readMesh(seg.result)).parts.length).toBe(10);
  });

  // The split job's options reach the result: the part grouping names and counts the parts of
  // a figure, a joint with merge off adds separate connector parts, a box (no neck, no limbs)
  // is one part as a character, and the general model's level sets how many parts a shape
  // without structure is cut into.
  it.each([
    ["figure", "character", "a", "none", true, "medium", ["head", "left_arm", "left_leg", "right_arm", "right_leg", "torso"]],
    ["figure", "character", "b", "none", true, "medium", ["head", "left_arm", "legs", "right_arm", "torso"]],
    ["figure", "character", "c", "none", true, "medium", ["head_and_torso", "left_arm", "legs", "right_arm"]],
    ["figure", "character", "e", "none", true, "medium", ["body", "head", "legs"]],
    ["figure", "character", "f", "pin", true, "medium", ["body", "head"]],
    ["figure", "character", "f", "ball", false, "medium", ["body", "head", "joint_1"]],
    ["box", "character", "a", "ball", true, "medium", ["torso"]],
    ["box", "general", "a", "none", true, "low", ["part_1", "part_2"]],
    ["box", "general", "a", "none", true, "high", ["part_1", "part_2", "part_3", "part_4"]],
  ] as const)(
    "split of a %s: %s part %s joint %s merge %s level %s names its parts",
    async (shape, model, part, joint, merge, level, names) => {
      const mesh = shape === "figure" ? figure : box([-30, 0, -10], [30, 100, 10]);
      const meshPath = await writeGlb(`split-${shape}-${model}-${part}-${joint}-${merge}-${level}.glb`, mesh);
      const { result } = await runJob({ kind: "split", meshPath, model, part, joint, merge, level, format: 2 });
      const parts = (await readMesh(result)).parts;
      expect(parts.map((p) => p.name).sort()).toEqual([...names].sort());
      for (const p of parts) expect(checkManifold(p.indices).closed, p.name).toBe(true);
    },
  );

  // Segmentation cuts the mesh into parts without losing or adding surface: the parts' areas add
  // up to the input's and together they span its bounds, at every level.
  it.each(["low", "medium", "high"] as const)("segmentation parts cover the mesh (%s)", async (segLevel) => {
    const input = uvSphere(40, 48, 96);
    const meshPath = await writeGlb(`cover-${segLevel}.glb`, input);
    const { result } = await runJob({ kind: "segmentation", meshPath, segLevel, format: 2 });
    const parts = (await readMesh(result)).parts;
    expect(parts.length).toBeGreaterThan(1);
    const area = (positions: ArrayLike<number>, indices: ArrayLike<number>) => {
      let sum = 0;
      for (let t = 0; t < indices.length; t += 3) {
        const [a, b, c] = [0, 1, 2].map((k) => indices[t + k]! * 3) as [number, number, number];
        const u = [0, 1, 2].map((d) => positions[b + d]! - positions[a + d]!);
        const v = [0, 1, 2].map((d) => positions[c + d]! - positions[a + d]!);
        sum += Math.hypot(u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!) / 2;
      }
      return sum;
    };
    const partAreas = parts.map((p) => area(p.positions, p.indices));
    for (const a of partAreas) expect(a).toBeGreaterThan(0);
    expect(partAreas.reduce((x, y) => x + y, 0) / area(input.positions, input.indices)).toBeCloseTo(1, 2);
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (const p of parts)
      for (let i = 0; i < p.positions.length; i++) {
        lo[i % 3] = Math.min(lo[i % 3]!, p.positions[i]!);
        hi[i % 3] = Math.max(hi[i % 3]!, p.positions[i]!);
      }
    for (let d = 0; d < 3; d++) {
      expect(lo[d]).toBeCloseTo(-40, 1);
      expect(hi[d]).toBeCloseTo(40, 1);
    }
  });

  it("rejects a corrupt image with InputDecodeError", async () => {
    const path = join(dir, "corrupt.png");
    writeFileSync(path, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 7)]));
    await expect(runJob(imageJob({ images: [{ view: "front", path }] }))).rejects.toBeInstanceOf(InputDecodeError);
    await expect(runJob(depthJob({ imagePath: path }))).rejects.toBeInstanceOf(InputDecodeError);
    await expect(runJob(depthJob({ imagePath: path }))).rejects.toMatchObject({ name: "InputDecodeError" });
  });

  it("rejects a mesh without triangles with InputContentError, the client's input error", async () => {
    // It reads (one triangle), but the triangle has no area: nothing is left once welded.
    const meshPath = await writeGlb("flat.glb", {
      name: "flat",
      positions: new Float32Array([1, 2, 3, 1, 2, 3, 1, 2, 3]),
      indices: new Uint32Array([0, 1, 2]),
    });
    const job = { kind: "split", meshPath, model: "character", part: "a", joint: "none", merge: true, level: "medium", format: 2 } as const;
    const failure = runJob(job);
    await expect(failure).rejects.toBeInstanceOf(InputContentError);
    await expect(failure).rejects.toBeInstanceOf(InputDecodeError);
    await expect(failure).rejects.toMatchObject({ name: "InputContentError", message: "the mesh has no triangles" });
  });

  it("refuses a job of no known kind, naming it", async () => {
    await expect(runJob({ kind: "sculpt" } as unknown as Job)).rejects.toThrow("unknown job kind sculpt");
  });

  // The depth map follows its job: rmbg leaves the background at 0, and sculpmode 1 (engrave)
  // turns the subject's depth upside down while the background stays 0.
  it("a depth map follows rmbg and sculpmode", async () => {
    const gray = async (over: Partial<DepthJob>) => {
      const { result } = await runJob(depthJob({ format: 2, modelType: "base", ...over }));
      const { data, info } = await sharp(result).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
      expect(info.channels).toBe(1);
      return data;
    };
    const relief = await gray({ rmbg: true, sculpmode: 0 });
    const engraved = await gray({ rmbg: true, sculpmode: 1 });
    const plain = await gray({ rmbg: false, sculpmode: 0 });
    expect(engraved.length).toBe(relief.length);
    let background = 0,
      subject = 0,
      inverted = 0;
    for (let i = 0; i < relief.length; i++) {
      if (relief[i] === 0 && engraved[i] === 0) background++;
      else {
        subject++;
        // Inverted within rounding: near where it was far.
        if (Math.abs(relief[i]! + engraved[i]! - 255) <= 3) inverted++;
      }
    }
    expect(background / relief.length).toBeGreaterThan(0.2);
    expect(subject / relief.length).toBeGreaterThan(0.2);
    expect(inverted / subject).toBeGreaterThan(0.95);
    // Relief (sculpmode 0) is high where the image is bright, engrave where it is dark.
    const { data: image } = await sharp(fixture("teapot.png"))
      .resize(1024, 1024, { fit: "fill" })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const covariance = (map: Uint8Array) => {
      let n = 0,
        sm = 0,
        si = 0,
        smi = 0;
      for (let i = 0; i < map.length; i++) {
        if (relief[i] === 0 && engraved[i] === 0) continue;
        n++;
        sm += map[i]!;
        si += image[i]!;
        smi += map[i]! * image[i]!;
      }
      return smi / n - (sm / n) * (si / n);
    };
    expect(relief.length).toBe(image.length);
    expect(covariance(relief)).toBeGreaterThan(0);
    expect(covariance(engraved)).toBeLessThan(0);
    // Without rmbg the whole frame is relief: the teapot's background has depth too.
    expect(plain.filter((v) => v > 0).length / plain.length).toBeGreaterThan(0.95);
  });
});
