import { describe, expect, it } from "vitest";
import { unzipSync } from "fflate";
import { MeshDecodeError, detectMeshType, readMesh } from "./read-mesh";
import { writeMesh } from "./index";
import { writeGlb } from "./glb";
import { writeStl } from "./stl";
import { writeObj } from "./obj";
import { cube, signedVolume, testScene } from "./fixtures.test-helpers";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("detectMeshType", () => {
  it("recognises GLB, binary and ASCII STL and OBJ", async () => {
    expect(detectMeshType(await writeGlb(testScene()))).toBe("glb");
    expect(detectMeshType(await writeStl(testScene()))).toBe("stl");
    expect(detectMeshType(enc("solid x\n facet normal 0 0 1\n outer loop\n"))).toBe("stl");
    expect(detectMeshType(enc("# comment\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"))).toBe("obj");
  });

  it("detects a binary STL whose header starts with 'solid'", async () => {
    const bytes = await writeStl({ parts: [cube()] });
    bytes.set(enc("solid binary"), 0);
    expect(detectMeshType(bytes)).toBe("stl");
    expect((await readMesh(bytes)).parts[0]!.indices.length).toBe(36);
  });

  it("returns null for other data", () => {
    expect(detectMeshType(new Uint8Array(0))).toBeNull();
    expect(detectMeshType(enc("hello world"))).toBeNull();
    expect(detectMeshType(enc('{"asset":{"version":"2.0"}}'))).toBeNull();
    expect(detectMeshType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]))).toBeNull();
    expect(detectMeshType(enc("v 1 2 3\n"))).toBeNull(); // vertices but no faces
  });
});

describe("readMesh errors", () => {
  it("throws MeshDecodeError for unknown data", async () => {
    await expect(readMesh(enc("not a mesh"))).rejects.toBeInstanceOf(MeshDecodeError);
  });

  it("throws MeshDecodeError for a truncated GLB", async () => {
    const glb = await writeGlb(testScene());
    const err = await readMesh(glb.subarray(0, 200)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeshDecodeError);
    expect((err as Error).message).toMatch(/GLB/);
  });

  it("throws MeshDecodeError for OBJ with a bad index or no faces", async () => {
    await expect(readMesh(enc("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n"))).rejects.toThrow(/line 4: index 7 out of range/);
    await expect(readMesh(enc("v 0 0 0\nv 1 0 0\nf 1 2\n"))).rejects.toThrow(MeshDecodeError);
    await expect(readMesh(enc("v 0 0 x\nf 1 1 1\n"))).rejects.toThrow(/invalid number/);
  });

  it("throws MeshDecodeError for an ASCII STL with a broken facet", async () => {
    const text = "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\nendfacet\nendsolid\n";
    await expect(readMesh(enc(text))).rejects.toThrow(MeshDecodeError);
  });
});

describe("readMesh OBJ", () => {
  it("fan-triangulates polygons, resolves negative indices and v/vt/vn forms", async () => {
    const obj = [
      "o quad",
      "v 0 0 0",
      "v 1 0 0",
      "v 1 1 0",
      "v 0 1 0",
      "vt 0 0",
      "vt 1 0",
      "vt 1 1",
      "vt 0 1",
      "vn 0 0 2",
      "f -4/-4/-1 -3/-3/-1 -2/-2/-1 -1/-1/-1",
      "g tri",
      "f 1//1 2//1 3//1",
      "o pentagon",
      "v 0 0 5",
      "v 2 0 5",
      "v 3 2 5",
      "v 1 3 5",
      "v -1 2 5",
      "f 5 6 7 8 9",
    ].join("\r\n");
    const scene = await readMesh(enc(obj));
    expect(scene.parts.map((p) => [p.name, p.positions.length / 3, p.indices.length / 3])).toEqual([
      ["quad", 4, 2],
      ["tri", 3, 1],
      ["pentagon", 5, 3],
    ]);
    const [quad, tri, penta] = scene.parts;
    expect(Array.from(quad!.indices)).toEqual([0, 1, 2, 0, 2, 3]);
    // OBJ v is bottom-up; the Scene uses glTF's top-down v.
    expect(Array.from(quad!.uvs!)).toEqual([0, 1, 1, 1, 1, 0, 0, 0]);
    expect(Array.from(quad!.normals!.subarray(0, 3))).toEqual([0, 0, 1]);
    expect(tri!.uvs).toBeUndefined();
    expect(tri!.normals).toHaveLength(9);
    expect(penta!.normals).toBeUndefined();
    expect(Array.from(penta!.indices)).toEqual([0, 1, 2, 0, 2, 3, 0, 3, 4]);
  });

  it("reads the writer's plain OBJ (a scene without materials)", async () => {
    const part = { ...cube(30, [5, 5, 5], false), material: undefined };
    const out = await writeObj({ parts: [part] });
    expect(out.ext).toBe("obj");
    const scene = await readMesh(out.bytes);
    expect(scene.parts[0]!.positions).toHaveLength(24 * 3);
    expect(signedVolume(scene.parts[0]!)).toBeCloseTo(27000, 1);
  });
});

describe("writeMesh", () => {
  it("maps format codes to writers and extensions", async () => {
    const scene = testScene();
    const exts = [];
    for (const f of [1, 2, 3, 4, 5, 6] as const) {
      const out = await writeMesh(scene, f);
      expect(out.bytes.length).toBeGreaterThan(100);
      exts.push(out.ext);
    }
    expect(exts).toEqual(["zip", "glb", "stl", "fbx", "usdz", "3mf"]);
    expect(Object.keys(unzipSync((await writeMesh(scene, 6)).bytes))).toContain("3D/3dmodel.model");
    await expect(writeMesh(scene, 9 as 1)).rejects.toThrow(/unknown mesh format/);
  });

  it("rejects scenes with out-of-range indices", async () => {
    const part = cube();
    part.indices[5] = 99;
    await expect(writeMesh({ parts: [part] }, 3)).rejects.toThrow(/out of range/);
  });
});
