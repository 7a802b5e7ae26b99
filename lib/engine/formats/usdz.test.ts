import { describe, expect, it } from "vitest";
import { unzipSync } from "fflate";
import { Mesh, type BufferGeometry, type Object3D } from "three";
import { USDLoader } from "three/examples/jsm/loaders/USDLoader.js";
import { writeUsdz } from "./usdz";
import { storedDataOffsets, zipStoredAligned } from "./zip-store";
import { cube, icosphere, testScene, texture4x4 } from "./fixtures.test-helpers";
import { decodeImage } from "./common";

function meshes(root: Object3D): Mesh[] {
  const out: Mesh[] = [];
  root.traverse((o) => {
    if (o instanceof Mesh) out.push(o);
  });
  return out;
}

describe("writeUsdz", () => {
  it("is a stored ZIP with model.usda first and every file 64-byte aligned", async () => {
    const bytes = await writeUsdz(testScene());
    const entries = storedDataOffsets(bytes);
    expect(entries.map((e) => e.name)).toEqual(["model.usda", "textures/texture_0.png"]);
    for (const e of entries) expect(e.offset % 64).toBe(0);
    const files = unzipSync(bytes); // also validates CRCs and the central directory
    expect(Object.keys(files)).toEqual(["model.usda", "textures/texture_0.png"]);
    const png = await decodeImage(files["textures/texture_0.png"]!);
    expect(Array.from(png.data)).toEqual(Array.from(texture4x4().data));
  });

  it("aligns any mix of name lengths, including paddings below 4 bytes", () => {
    for (let len = 1; len < 70; len++) {
      const zip = zipStoredAligned([
        { name: "a".repeat(len), data: new Uint8Array(len * 7 + 1) },
        { name: "b", data: new Uint8Array([1, 2, 3]) },
      ]);
      for (const e of storedDataOffsets(zip)) expect(e.offset % 64).toBe(0);
      expect(Object.keys(unzipSync(zip))).toHaveLength(2);
    }
  });

  it("writes an ASCII layer in millimetres, Y up, with one mesh per part", async () => {
    const usda = new TextDecoder().decode(unzipSync(await writeUsdz(testScene()))["model.usda"]!);
    expect(usda.startsWith("#usda 1.0")).toBe(true);
    expect(usda).toContain("metersPerUnit = 0.001");
    expect(usda).toContain('upAxis = "Y"');
    expect(usda.match(/def Mesh "/g)).toHaveLength(2);
    const counts = [...usda.matchAll(/int\[\] faceVertexCounts = \[([^\]]*)\]/g)].map((m) => m[1]!.split(",").length);
    expect(counts).toEqual([12, 80]);
    const points = [...usda.matchAll(/point3f\[\] points = \[([^\]]*)\]/g)].map((m) => m[1]!.split("(").length - 1);
    expect(points).toEqual([24, 42]);
    expect(usda).toContain('uniform token info:id = "UsdPreviewSurface"');
    expect(usda).toContain("asset inputs:file = @textures/texture_0.png@");
    // st has a bottom-left origin: the cube's first uv (0, 1) in glTF becomes (0, 0).
    expect(usda).toMatch(/texCoord2f\[\] primvars:st = \[\(0, 0\), \(1, 0\)/);
  });

  it("loads in three.js USDLoader with the right counts", async () => {
    const cubePart = cube(20, [0, 0, 0], false);
    const scene = { parts: [cubePart, icosphere()] };
    const bytes = await writeUsdz(scene);
    const group = new USDLoader().parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const found = meshes(group);
    expect(found).toHaveLength(2);
    const tri = (g: BufferGeometry): number => (g.index ? g.index.count : g.getAttribute("position").count) / 3;
    expect(found.map((m) => tri(m.geometry))).toEqual([12, 80]);
    const cg = found[0]!.geometry;
    expect(cg.getAttribute("uv")).toBeTruthy();
    expect(found[1]!.geometry.getAttribute("normal")).toBeTruthy();
    // Positions stay in file units (mm); the 20 mm cube spans +-10.
    cg.computeBoundingBox();
    expect(cg.boundingBox!.max.x).toBeCloseTo(10, 4);
  });
});
