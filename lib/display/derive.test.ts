/**
 * display.glb for every result format the service writes (made with the service's own
 * writers): valid glTF, every triangle kept, part names kept, textures as WebP, vertex
 * colours kept, positions in the viewer's (Y-up) frame within quantisation tolerance, and
 * the source file untouched.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Document } from "@gltf-transform/core";
import { describe, expect, it } from "vitest";
import { writeMesh, type MeshFormat } from "@/lib/engine/formats";
import { cube, icosphere, texture4x4 } from "@/lib/engine/formats/fixtures.test-helpers";
import { triangleCount, type MeshPart, type Scene } from "@/lib/engine/mesh/types";
import { deriveDisplayCopies, type SourceFormat } from "./derive";
import { countTriangles } from "./simplify-preview";
import { diagonal, drawnVertices, expectValidGlb, maxNearestDistance, readGlb, sha256, withFacetColours } from "./display.test-helpers";
import { tempDir } from "@/test/harness/temp-dir";

const dir = tempDir("display");

/** A PBR-textured cube, a vertex-coloured sphere and a plain grey plate. */
function mixedScene(): Scene {
  const textured = cube(20, [0, 5, -3]);
  textured.name = "textured cube";
  const mr = texture4x4();
  for (let i = 0; i < mr.data.length; i += 4) mr.data.set([0, 200, 60, 255], i);
  const normal = texture4x4();
  for (let i = 0; i < normal.data.length; i += 4) normal.data.set([128, 128, 255, 255], i);
  textured.material = { ...textured.material!, metallicRoughnessTexture: mr, normalTexture: normal, metallicFactor: 1, roughnessFactor: 1 };
  const coloured = icosphere(10, [40, 2, 7]);
  coloured.name = "coloured sphere";
  const plate = { ...cube(40, [0, -30, 0], false), name: "base plate" };
  plate.material = { name: "grey", baseColorFactor: [0.3, 0.3, 0.3, 1], metallicFactor: 0, roughnessFactor: 0.6 };
  return { parts: [textured, coloured, plate] };
}

/** The same parts without materials: the service writes those as plain OBJ text. */
function plainScene(): Scene {
  return { parts: mixedScene().parts.map((part) => ({ ...part, material: undefined, uvs: undefined })) };
}

const SANITISED = { "textured cube": "textured_cube", "coloured sphere": "coloured_sphere", "base plate": "base_plate" } as const;

interface Case {
  format: SourceFormat;
  code: MeshFormat;
  scene: () => Scene;
  /** Part names as the format keeps them (null: the format has none). */
  names: "original" | "sanitised" | null;
  /** WebP textures expected in the display copy. */
  textures: number;
  /** Whether the sphere's vertex colours survive the format. */
  colours: boolean;
  /** Scene millimetres to the format's units as its loader returns them. */
  unit: number;
}

const CASES: Case[] = [
  { format: "glb", code: 2, scene: mixedScene, names: "original", textures: 3, colours: true, unit: 0.001 },
  // With an MTL, three's OBJLoader draws the MTL's materials without vertex colours: so does the copy.
  { format: "zip", code: 1, scene: mixedScene, names: "sanitised", textures: 1, colours: false, unit: 1 },
  { format: "obj", code: 1, scene: plainScene, names: "sanitised", textures: 0, colours: true, unit: 1 },
  { format: "stl", code: 3, scene: mixedScene, names: null, textures: 0, colours: false, unit: 1 },
  // FBX's Phong material has a normal map slot but none for metallic-roughness.
  { format: "fbx", code: 4, scene: mixedScene, names: "sanitised", textures: 2, colours: true, unit: 1 },
  { format: "usdz", code: 5, scene: mixedScene, names: "sanitised", textures: 3, colours: false, unit: 0.001 },
  { format: "3mf", code: 6, scene: mixedScene, names: "original", textures: 1, colours: true, unit: 1 },
];

/** Triangles per named node that draws a mesh. */
function trianglesByName(doc: Document): Map<string, number> {
  const out = new Map<string, number>();
  for (const node of doc.getRoot().listNodes()) {
    const prims = node.getMesh()?.listPrimitives() ?? [];
    const n = prims.reduce((t, p) => t + p.getIndices()!.getCount() / 3, 0);
    if (n > 0) out.set(node.getName(), (out.get(node.getName()) ?? 0) + n);
  }
  return out;
}

/** Derives the copies of a source file and checks what every format must keep. */
async function derive(label: string, bytes: Uint8Array, format: SourceFormat, scene: Scene, unit: number): Promise<Document> {
  const input = path.join(dir, `${label}.${format}`);
  writeFileSync(input, bytes);
  const before = sha256(input);
  const out = path.join(dir, label);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out);
  writeFileSync(path.join(out, "preview.glb"), "left by an earlier derivation"); // goes: this model needs none
  const copies = await deriveDisplayCopies(input, format, out);
  expect(sha256(input), "the source file is left as it was").toBe(before);
  expect(copies.preview).toBeNull();
  expect(copies.display.file).toBe("display.glb");
  expect(readdirSync(out), "no temporary files remain").toEqual(["display.glb"]);
  const glb = readFileSync(path.join(out, "display.glb"));
  expect(copies.display.bytes).toBe(glb.byteLength);
  await expectValidGlb(glb, label);
  const doc = await readGlb(path.join(out, "display.glb"));
  const tris = triangleCount(scene);
  expect(copies.display.triangles).toBe(tris);
  expect(countTriangles(doc)).toBe(tris);
  // Positions: the source's geometry, turned Y up where the format is Z up, in the loader's units.
  const expected = new Float32Array(scene.parts.flatMap((p) => Array.from(p.positions, (x) => x * unit)));
  const actual = drawnVertices(doc).positions;
  const tol = 1e-3 * diagonal(expected);
  expect(maxNearestDistance(actual, expected, tol), "display vertices lie on source vertices").toBeLessThanOrEqual(tol);
  expect(maxNearestDistance(expected, actual, tol), "every source vertex is still there").toBeLessThanOrEqual(tol);
  return doc;
}

/**
 * The textured part's vertices carry the source's uvs (glTF convention, v down), so the
 * texture lands where it did: each (position, uv) pair matches a source pair.
 */
function expectUvsKept(doc: Document, part: MeshPart, unit: number): void {
  const drawn = drawnVertices(doc, (p) => p.getMaterial()?.getBaseColorTexture() != null);
  const scale = diagonal(part.positions) * unit;
  expect(drawn.positions.length).toBeGreaterThan(0);
  for (let i = 0; i < drawn.positions.length / 3; i++) {
    let best = Infinity;
    for (let j = 0; j < part.positions.length / 3; j++) {
      const dp = Math.hypot(...[0, 1, 2].map((k) => drawn.positions[i * 3 + k]! - part.positions[j * 3 + k]! * unit)) / scale;
      const duv = Math.hypot(drawn.uvs[i * 2]! - part.uvs![j * 2]!, drawn.uvs[i * 2 + 1]! - part.uvs![j * 2 + 1]!);
      best = Math.min(best, dp + duv);
    }
    expect(best, `vertex ${i}: position + uv off the source's`).toBeLessThan(1e-3);
  }
}

describe.each(CASES)("display copy of $format", ({ format, code, scene: makeScene, names, textures, colours, unit }) => {
  it("is valid glTF with every triangle, name, texture and colour of the source", async () => {
    const scene = makeScene();
    const written = await writeMesh(scene, code);
    expect(written.ext).toBe(format);
    const doc = await derive(format, written.bytes, format, scene, unit);

    if (names) {
      const byName = trianglesByName(doc);
      for (const part of scene.parts) {
        const name = names === "original" ? part.name : SANITISED[part.name as keyof typeof SANITISED];
        expect(byName.get(name), `triangles of "${name}" in [${[...byName.keys()].join(", ")}]`).toBe(part.indices.length / 3);
      }
      // The plate's grey material (linear 0.3) survives every format that has materials.
      const plate = doc
        .getRoot()
        .listNodes()
        .find((n) => n.getName() === (names === "original" ? "base plate" : "base_plate") && n.getMesh());
      const [r, g, b] = plate!.getMesh()!.listPrimitives()[0]!.getMaterial()!.getBaseColorFactor();
      if (format !== "obj") for (const c of [r, g, b]) expect(c).toBeCloseTo(0.3, 2);
    }
    if (format === "glb") {
      const materials = doc
        .getRoot()
        .listMaterials()
        .map((m) => m.getName());
      expect(materials.sort()).toEqual(scene.parts.map((p) => p.material!.name).sort());
    }
    const tex = doc.getRoot().listTextures();
    expect(tex.map((t) => t.getMimeType())).toEqual(Array<string>(textures).fill("image/webp"));
    if (textures > 0)
      expect(
        doc
          .getRoot()
          .listExtensionsUsed()
          .map((e) => e.extensionName),
      ).toContain("EXT_texture_webp");
    const prims = doc
      .getRoot()
      .listMeshes()
      .flatMap((m) => m.listPrimitives());
    const withColours = prims.filter((p) => p.getAttribute("COLOR_0"));
    expect(withColours.length > 0, "vertex colours").toBe(colours);
    if (textures > 0) expectUvsKept(doc, scene.parts[0]!, unit);
    for (const ext of ["KHR_mesh_quantization", "EXT_meshopt_compression"]) {
      expect(
        doc
          .getRoot()
          .listExtensionsUsed()
          .map((e) => e.extensionName),
      ).toContain(ext);
    }
  });
});

describe("display copy of other STL flavours", () => {
  it("binary STL with per-facet colours (COLOR= header) keeps them as vertex colours", async () => {
    const scene = mixedScene();
    const red = scene.parts[0]!.indices.length / 3;
    const bytes = withFacetColours((await writeMesh(scene, 3)).bytes, (t) => (t < red ? 0x001f : 0x8000));
    const doc = await derive("coloured-stl", bytes, "stl", scene, 1);
    const colours = doc
      .getRoot()
      .listMeshes()
      .flatMap((m) => m.listPrimitives())
      .map((p) => p.getAttribute("COLOR_0"));
    expect(
      colours.every((c) => c !== null),
      "every primitive has COLOR_0",
    ).toBe(true);
    const rgb: number[][] = [];
    for (const c of colours) for (let i = 0; i < c!.getCount(); i++) rgb.push(c!.getElement(i, [0, 0, 0]));
    expect(rgb.filter(([r, g, b]) => r! > 0.95 && g! < 0.05 && b! < 0.05).length, "the red facets' vertices").toBeGreaterThanOrEqual(red);
    expect(
      rgb.some(([r, g]) => Math.abs(r! - g!) < 0.01 && r! > 0.1),
      "the default grey",
    ).toBe(true);
  });

  it("ASCII STL", async () => {
    const scene = plainScene();
    const lines = ["solid ascii"];
    for (const part of scene.parts) {
      for (let t = 0; t < part.indices.length; t += 3) {
        lines.push(" facet normal 0 0 0", "  outer loop");
        for (const v of part.indices.subarray(t, t + 3)) {
          const [x, y, z] = part.positions.subarray(v * 3, v * 3 + 3);
          lines.push(`   vertex ${x} ${-z!} ${y}`); // Z up, as the service writes STL
        }
        lines.push("  endloop", " endfacet");
      }
    }
    lines.push("endsolid ascii");
    await derive("ascii-stl", new TextEncoder().encode(lines.join("\n")), "stl", scene, 1);
  });
});

describe("unreadable sources", () => {
  it("fail with a readable reason and write nothing", async () => {
    const input = path.join(dir, "truncated.stl");
    const stl = (await writeMesh(mixedScene(), 3)).bytes;
    writeFileSync(input, stl.subarray(0, 84 + 50 * 3 + 20)); // the header promises 104 facets
    const out = path.join(dir, "truncated");
    await expect(deriveDisplayCopies(input, "stl", out)).rejects.toThrow("the file is not a valid STL file");
    expect(existsSync(path.join(out, "display.glb"))).toBe(false);
  });
});
