/**
 * Every GLB the service writes must pass the official Khronos glTF validator with zero
 * errors: the fixture scenes through writeMesh, and the real jobs through runJob.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NodeIO } from "@gltf-transform/core";
import { afterAll, describe, expect, it } from "vitest";
import type { ImageTo3DJob, Job } from "@/lib/engine/generate/job";
import { runJob } from "@/lib/engine/generate/run-job";
import { fixture, uvSphere } from "@/lib/engine/generate/generate.test-helpers";
import type { MeshPart, Scene } from "@/lib/engine/mesh/types";
import { writeMesh } from "./index";
import { cube, icosphere, testScene, texture4x4 } from "./fixtures.test-helpers";

interface ValidatorMessage {
  code: string;
  message: string;
  severity: number;
  pointer?: string;
  offset?: number;
}

interface ValidatorReport {
  issues: { numErrors: number; numWarnings: number; numInfos: number; numHints: number; messages: ValidatorMessage[] };
}

interface GltfValidator {
  validateBytes(
    data: Uint8Array,
    options?: { uri?: string; format?: "glb" | "gltf"; maxIssues?: number; writeTimestamp?: boolean },
  ): Promise<ValidatorReport>;
}

// The package ships no type declarations; load it through require with a typed facade.
const { validateBytes } = createRequire(import.meta.url)("gltf-validator") as GltfValidator;

const SEVERITY = ["error", "warning", "info", "hint"] as const;

const dir = mkdtempSync(join(tmpdir(), "x3d-gltf-validation-"));
const summary: string[] = [];
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  console.log(`glTF validator summary (errors / warnings / infos / hints):\n${summary.join("\n")}`);
});

/** Validates a GLB and asserts it has no errors; the failure message lists every finding. */
async function expectValidGlb(bytes: Uint8Array, label: string): Promise<ValidatorReport> {
  const report = await validateBytes(bytes, { uri: `${label}.glb`, format: "glb", maxIssues: 0, writeTimestamp: false });
  const { numErrors, numWarnings, numInfos, numHints, messages } = report.issues;
  summary.push(`  ${label}: ${numErrors} / ${numWarnings} / ${numInfos} / ${numHints}`);
  const listing = messages
    .map(
      (m) =>
        `  [${SEVERITY[m.severity] ?? m.severity}] ${m.code} ${m.pointer ?? (m.offset !== undefined ? `@${m.offset}` : "")}: ${m.message}`,
    )
    .join("\n");
  expect(numErrors, `${label}: glTF validator errors\n${listing}`).toBe(0);
  // Warnings are not failures, but keep them visible; infos/hints are informational only.
  if (numWarnings > 0) console.warn(`${label}: glTF validator warnings\n${listing}`);
  return report;
}

async function glbOf(job: Job): Promise<Uint8Array> {
  const r = await runJob(job);
  expect(r.resultExt).toBe("glb");
  return r.result;
}

function save(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

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

/** Writer paths the jobs may not reach: 32-bit indices, translucent PBR with every texture, odd normals, empty parts. */
function edgeCaseScene(): Scene {
  const pbrCube = cube(20, [0, 0, 30]);
  pbrCube.name = "pbr cube";
  pbrCube.material = {
    ...pbrCube.material!,
    baseColorFactor: [1, 1, 1, 0.5],
    metallicRoughnessTexture: texture4x4(),
    normalTexture: texture4x4(),
  };
  const big = uvSphere(30, 260, 260, [0, 0, -80]); // > 65535 vertices
  const noNormals = icosphere(5, [0, 40, 0]);
  delete noNormals.normals;
  const badNormals = icosphere(5, [0, -40, 0]);
  badNormals.name = "non-unit normals";
  badNormals.normals = badNormals.normals!.map((x, i) => (i < 3 ? 0 : x * 3)); // one zero, the rest length 3
  // Same textured material as pbrCube, but no uvs: its primitive must not bind textures.
  const noUvs: MeshPart = { ...cube(20, [30, 0, 30]), name: "no uvs", material: pbrCube.material };
  delete noUvs.uvs;
  const loudColours = icosphere(5, [40, 40, 0]);
  loudColours.name = "colours out of range";
  loudColours.colors = loudColours.colors!.map((c, i) => (i % 3 === 0 ? -c : i % 3 === 1 ? c * 2 : Number.NaN));
  const empty: MeshPart = { name: "empty", positions: new Float32Array(0), indices: new Uint32Array(0) };
  return { parts: [pbrCube, big, noNormals, badNormals, noUvs, loudColours, empty] };
}

/** Every material input the writer emits: base colour, packed metallic-roughness and normal textures, plus vertex colours. */
function pbrScene(): Scene {
  const pbr = cube(20, [0, 0, 0]);
  pbr.name = "pbr textures";
  const mr = texture4x4();
  for (let i = 0; i < mr.data.length; i += 4) mr.data.set([0, 180, 40, 255], i);
  const normal = texture4x4();
  for (let i = 0; i < normal.data.length; i += 4) normal.data.set([128, 128, 255, 255], i);
  pbr.material = {
    name: "pbr",
    baseColorFactor: [1, 1, 1, 1],
    baseColorTexture: texture4x4(),
    metallicRoughnessTexture: mr,
    normalTexture: normal,
    metallicFactor: 1,
    roughnessFactor: 1,
  };
  const coloured = icosphere(8, [30, 0, 0]);
  coloured.name = "vertex colours";
  const colouredTextured: MeshPart = {
    ...cube(10, [0, 30, 0]),
    name: "vertex colours + pbr",
    colors: new Float32Array(24 * 3).fill(0.5),
    material: pbr.material,
  };
  return { parts: [pbr, coloured, colouredTextured] };
}

describe("glTF validator: writeMesh(scene, 2)", () => {
  it.each([
    ["textured cube", () => ({ parts: [cube()] })],
    ["coloured icosphere", () => ({ parts: [icosphere()] })],
    ["cube + icosphere", testScene],
    ["untextured cube", () => ({ parts: [cube(20, [0, 0, 0], false)] })],
    ["edge cases", edgeCaseScene],
    ["pbr textures + vertex colours", pbrScene],
  ] as const)("%s", async (label, scene) => {
    await expectValidGlb((await writeMesh(scene(), 2)).bytes, label);
  });

  it("edge cases are written sanitised: unit normals, clamped colours, no textures without uvs", async () => {
    const doc = await new NodeIO().readBinary((await writeMesh(edgeCaseScene(), 2)).bytes);
    const prims = new Map(
      doc
        .getRoot()
        .listMeshes()
        .map((m) => [m.getName(), m.listPrimitives()[0]!]),
    );
    expect([...prims.keys()]).toEqual(["pbr cube", "sphere", "icosphere", "non-unit normals", "no uvs", "colours out of range"]);
    expect(prims.get("sphere")!.getIndices()!.getComponentType()).toBe(5125); // UNSIGNED_INT
    const normals = prims.get("non-unit normals")!.getAttribute("NORMAL")!.getArray()!;
    for (let i = 0; i < normals.length; i += 3) expect(Math.hypot(normals[i]!, normals[i + 1]!, normals[i + 2]!)).toBeCloseTo(1, 5);
    const colours = Array.from(prims.get("colours out of range")!.getAttribute("COLOR_0")!.getArray()!);
    expect(Math.min(...colours) >= 0 && Math.max(...colours) <= 1).toBe(true);
    expect(prims.get("pbr cube")!.getMaterial()!.getBaseColorTexture()).not.toBeNull();
    const plain = prims.get("no uvs")!.getMaterial()!;
    expect([plain.getBaseColorTexture(), plain.getMetallicRoughnessTexture(), plain.getNormalTexture()]).toEqual([null, null, null]);
    expect(plain.getAlphaMode()).toBe("BLEND");
    expect(doc.getRoot().listTextures()).toHaveLength(3); // the shared textures are still written once
  });

  it("the pbr scene really carries normal and metallic-roughness textures and COLOR_0", async () => {
    const doc = await new NodeIO().readBinary((await writeMesh(pbrScene(), 2)).bytes);
    const prims = new Map(
      doc
        .getRoot()
        .listMeshes()
        .map((m) => [m.getName(), m.listPrimitives()[0]!]),
    );
    const pbr = prims.get("pbr textures")!.getMaterial()!;
    expect(pbr.getNormalTexture()).not.toBeNull();
    expect(pbr.getMetallicRoughnessTexture()).not.toBeNull();
    expect(pbr.getBaseColorTexture()).not.toBeNull();
    expect(prims.get("vertex colours")!.getAttribute("COLOR_0")).not.toBeNull();
    expect(prims.get("vertex colours + pbr")!.getAttribute("COLOR_0")).not.toBeNull();
    expect(prims.get("vertex colours + pbr")!.getMaterial()!.getNormalTexture()).not.toBeNull();
  });

  it("the validator does catch a broken GLB (guards against a silently passing setup)", async () => {
    const doc = await new NodeIO().readBinary((await writeMesh(testScene(), 2)).bytes);
    const normal = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getAttribute("NORMAL")!;
    const broken = new Float32Array(normal.getArray()!);
    broken[0] = 5;
    normal.setArray(broken);
    const report = await validateBytes(await new NodeIO().writeBinary(doc), { format: "glb", writeTimestamp: false });
    expect(report.issues.messages.map((m) => m.code)).toContain("ACCESSOR_VECTOR3_NON_UNIT");
  });
});

describe("glTF validator: runJob GLB results", () => {
  // Shared by the jobs that take a GLB from a previous image-to-3D result.
  let imageTo3dGlb: string | undefined;
  const imageTo3dPath = async (): Promise<string> => {
    imageTo3dGlb ??= save("image-to-3d.glb", await glbOf(imageJob()));
    return imageTo3dGlb;
  };

  it("image-to-3d, request_type 3 (geometry + PBR texture)", async () => {
    const bytes = await glbOf(imageJob({ requestType: 3 }));
    imageTo3dGlb ??= save("image-to-3d.glb", bytes);
    await expectValidGlb(bytes, "image-to-3d rt3");
  });

  it("image-to-3d, request_type 1 (geometry only)", async () => {
    await expectValidGlb(await glbOf(imageJob({ requestType: 1 })), "image-to-3d rt1");
  });

  it("image-to-3d, request_type 2 (texture a GLB written by writeMesh)", async () => {
    const meshPath = save("fixtures.glb", (await writeMesh(testScene(), 2)).bytes);
    await expectValidGlb(await glbOf(imageJob({ requestType: 2, meshPath })), "image-to-3d rt2");
  });

  it("depth relief as GLB (format 4)", async () => {
    const bytes = await glbOf({
      kind: "depth",
      imagePath: fixture("robot.png"),
      modelType: "pro",
      heightRelief: 1.3,
      rmbg: true,
      degreeRmbg: 0.02,
      shapeBase: 0,
      thicknessBase: 1,
      width: 40,
      sculpmode: 0,
      format: 4,
    });
    await expectValidGlb(bytes, "depth relief");
  });

  it("character split with ball joints of an image-to-3d GLB", async () => {
    const meshPath = await imageTo3dPath();
    const bytes = await glbOf({
      kind: "split",
      meshPath,
      model: "character",
      part: "a",
      joint: "ball",
      merge: true,
      level: "medium",
      format: 2,
    });
    await expectValidGlb(bytes, "split character ball");
  });

  it("segmentation of an image-to-3d GLB", async () => {
    const meshPath = await imageTo3dPath();
    await expectValidGlb(await glbOf({ kind: "segmentation", meshPath, segLevel: "high", format: 2 }), "segmentation");
  });
});
