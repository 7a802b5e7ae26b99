import { describe, expect, it } from "vitest";
import { unzipSync } from "fflate";
import { writeObj } from "./obj";
import { readMesh } from "./read-mesh";
import { decodeImage } from "./common";
import { cube, icosphere, signedVolume, testScene, texture4x4 } from "./fixtures.test-helpers";

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe("writeObj", () => {
  it("keeps plain material colours: a ZIP with model.obj and an MTL of Kd colours, no texture", async () => {
    const red = { name: "red", baseColorFactor: [1, 0, 0, 1] as [number, number, number, number], metallicFactor: 0, roughnessFactor: 0.7 };
    const blue = { ...red, name: "blue", baseColorFactor: [0, 0, 1, 1] as [number, number, number, number] };
    const a = { ...cube(20, [0, 0, 0], false), name: "segment_1", material: red };
    const b = { ...cube(20, [30, 0, 0], false), name: "segment_2", material: blue };
    const out = await writeObj({ parts: [a, b] });
    expect(out.ext).toBe("zip");
    const files = unzipSync(out.bytes);
    expect(Object.keys(files).sort()).toEqual(["model.mtl", "model.obj"]);
    const obj = text(files["model.obj"]!),
      mtl = text(files["model.mtl"]!);
    expect(obj).toMatch(/^usemtl red$/m);
    expect(obj).toMatch(/^usemtl blue$/m);
    expect(mtl).toMatch(/newmtl red\nKa 0 0 0\nKd 1 0 0/);
    expect(mtl).toMatch(/newmtl blue\nKa 0 0 0\nKd 0 0 1/);
  });

  it("writes a ZIP with model.obj, model.mtl and the texture when a part is textured", async () => {
    const out = await writeObj(testScene());
    expect(out.ext).toBe("zip");
    const files = unzipSync(out.bytes);
    expect(Object.keys(files).sort()).toEqual(["model.mtl", "model.obj", "texture_0.png"]);
    const obj = text(files["model.obj"]!);
    expect(obj).toContain("mtllib model.mtl");
    expect(obj.match(/^o /gm)).toHaveLength(2);
    expect(obj.match(/^v /gm)).toHaveLength(24 + 42);
    expect(obj.match(/^vt /gm)).toHaveLength(24);
    expect(obj.match(/^vn /gm)).toHaveLength(24 + 42);
    expect(obj.match(/^f /gm)).toHaveLength(12 + 80);
    // Sphere vertices carry an rgb extension; sphere faces use v//vn with global 1-based indices.
    expect(obj).toMatch(/^v \S+ \S+ \S+ \S+ \S+ \S+$/m);
    expect(obj).toMatch(/^f 25\/\/25 /m);
    const mtl = text(files["model.mtl"]!);
    expect(mtl).toContain("newmtl cube_material");
    expect(mtl).toContain("map_Kd texture_0.png");
    const png = await decodeImage(files["texture_0.png"]!);
    expect(Array.from(png.data)).toEqual(Array.from(texture4x4().data));
  });

  it("writes plain OBJ text for geometry without materials", async () => {
    const out = await writeObj({ parts: [{ ...cube(20, [0, 0, 0], false), material: undefined }] });
    expect(out.ext).toBe("obj");
    const obj = text(out.bytes);
    expect(obj).not.toContain("mtllib");
    expect(obj).toMatch(/^f 1\/1\/1 2\/2\/2 3\/3\/3$/m);
  });

  it("round-trips through readMesh with counts, flipped uvs and colours", async () => {
    const src = testScene();
    const files = unzipSync((await writeObj(src)).bytes);
    const scene = await readMesh(files["model.obj"]!);
    expect(scene.parts.map((p) => [p.name, p.positions.length / 3, p.indices.length / 3])).toEqual([
      ["cube", 24, 12],
      ["icosphere", 42, 80],
    ]);
    const [c, s] = scene.parts;
    expect(Array.from(c!.uvs!)).toEqual(Array.from(src.parts[0]!.uvs!).map((x) => expect.closeTo(x, 6)));
    expect(Array.from(c!.normals!.subarray(0, 3))).toEqual([1, 0, 0]);
    expect(signedVolume(c!)).toBeCloseTo(8000, 2);
    expect(s!.uvs).toBeUndefined();
    // OBJ readers renumber vertices in first-use order: match them back by position.
    const sphere = icosphere();
    for (let v = 0; v < 42; v++) {
      const p = s!.positions.subarray(v * 3, v * 3 + 3);
      let best = -1,
        bestD = Infinity;
      for (let w = 0; w < 42; w++) {
        const d = Math.hypot(...[0, 1, 2].map((k) => sphere.positions[w * 3 + k]! - p[k]!));
        if (d < bestD) [best, bestD] = [w, d];
      }
      expect(bestD).toBeLessThan(1e-4);
      for (let k = 0; k < 3; k++) expect(s!.colors![v * 3 + k]).toBeCloseTo(sphere.colors![best * 3 + k]!, 4);
    }
  });
});
