import { describe, expect, it } from "vitest";
import { Document, NodeIO } from "@gltf-transform/core";
import { writeGlb } from "./glb";
import { readMesh } from "./read-mesh";
import { decodeImage } from "./common";
import { cube, icosphere, signedVolume, testScene, texture4x4 } from "./fixtures.test-helpers";

describe("writeGlb", () => {
  it("writes one node + mesh per part, in metres, readable by gltf-transform", async () => {
    const bytes = await writeGlb(testScene());
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("glTF");
    const doc = await new NodeIO().readBinary(bytes);
    const root = doc.getRoot();
    expect(root.listNodes().map((n) => n.getName())).toEqual(["cube", "icosphere"]);
    expect(root.listMeshes()).toHaveLength(2);
    const [cp, sp] = root.listMeshes().map((m) => m.listPrimitives()[0]!);
    expect(cp!.getAttribute("POSITION")!.getCount()).toBe(24);
    expect(cp!.getIndices()!.getCount()).toBe(36);
    expect(cp!.getAttribute("TEXCOORD_0")!.getCount()).toBe(24);
    expect(cp!.getAttribute("NORMAL")!.getCount()).toBe(24);
    expect(cp!.getAttribute("COLOR_0")).toBeNull();
    expect(sp!.getAttribute("POSITION")!.getCount()).toBe(42);
    expect(sp!.getIndices()!.getCount()).toBe(240);
    expect(sp!.getAttribute("COLOR_0")!.getType()).toBe("VEC3");
    // 20 mm cube -> bounds +-0.01 m.
    expect(cp!.getAttribute("POSITION")!.getMax([])).toEqual([0.01, 0.01, 0.01].map((x) => expect.closeTo(x, 6)));
    const mat = cp!.getMaterial()!;
    expect(mat.getRoughnessFactor()).toBeCloseTo(0.8, 6);
    const tex = mat.getBaseColorTexture()!;
    expect(tex.getMimeType()).toBe("image/png");
    const img = await decodeImage(tex.getImage()!);
    expect([img.width, img.height]).toEqual([4, 4]);
    expect(Array.from(img.data)).toEqual(Array.from(texture4x4().data));
    expect(sp!.getMaterial()!.getMetallicFactor()).toBeCloseTo(0.5, 6);
  });

  it("round-trips through readMesh (mm, uvs, colours, texture)", async () => {
    const src = testScene();
    const scene = await readMesh(await writeGlb(src));
    expect(scene.parts.map((p) => [p.name, p.positions.length / 3, p.indices.length / 3])).toEqual([
      ["cube", 24, 12],
      ["icosphere", 42, 80],
    ]);
    const [c, s] = scene.parts;
    for (let i = 0; i < c!.positions.length; i++) expect(c!.positions[i]).toBeCloseTo(src.parts[0]!.positions[i]!, 3);
    expect(Array.from(c!.indices)).toEqual(Array.from(src.parts[0]!.indices));
    expect(Array.from(c!.uvs!)).toEqual(Array.from(src.parts[0]!.uvs!));
    expect(c!.material!.baseColorTexture!.width).toBe(4);
    expect(Array.from(c!.material!.baseColorTexture!.data)).toEqual(Array.from(texture4x4().data));
    expect(s!.colors).toHaveLength(42 * 3);
    expect(s!.colors![5]).toBeCloseTo(src.parts[1]!.colors![5]!, 6);
    expect(s!.material!.baseColorFactor).toEqual([0.8, 0.2, 0.1, 1].map((x) => expect.closeTo(x, 6)));
    expect(signedVolume(c!)).toBeCloseTo(8000, 0);
  });

  it("computes normals when a part has none", async () => {
    const part = icosphere(10, [0, 0, 0]);
    delete part.normals;
    const scene = await readMesh(await writeGlb({ parts: [part] }));
    const n = scene.parts[0]!.normals!;
    // Smooth normals of a sphere centred at the origin point along the position.
    const p = scene.parts[0]!.positions;
    for (let i = 0; i < 3; i++) expect(n[i]).toBeCloseTo(p[i]! / 10, 2);
  });
});

describe("readMesh GLB transforms", () => {
  async function glbWithNode(setup: (node: ReturnType<Document["createNode"]>) => void): Promise<Uint8Array> {
    const doc = new Document();
    const buf = doc.createBuffer();
    const part = cube(1000, [0, 0, 0], false); // 1 m cube in glTF units after /1000 below
    const pos = new Float32Array(part.positions.map((x) => x / 1000));
    const prim = doc
      .createPrimitive()
      .setAttribute("POSITION", doc.createAccessor().setType("VEC3").setArray(pos).setBuffer(buf))
      .setAttribute("NORMAL", doc.createAccessor().setType("VEC3").setArray(new Float32Array(part.normals!)).setBuffer(buf))
      .setIndices(doc.createAccessor().setType("SCALAR").setArray(new Uint16Array(part.indices)).setBuffer(buf));
    const child = doc.createNode("child").setMesh(doc.createMesh("m").addPrimitive(prim));
    const parent = doc.createNode("parent").addChild(child);
    setup(child);
    parent.setTranslation([1, 0, 0]);
    doc.createScene().addChild(parent);
    return new NodeIO().writeBinary(doc);
  }

  it("applies world transforms (rotation, scale, translation) to positions and normals", async () => {
    const s = Math.SQRT1_2;
    // 90 degrees about +Y: +X -> -Z.
    const bytes = await glbWithNode((n) => n.setRotation([0, s, 0, s]).setScale([2, 1, 1]));
    const part = (await readMesh(bytes)).parts[0]!;
    // Vertex 0 of the source cube: (0.5, -0.5, 0.5) m -> scale (1, -0.5, 0.5) -> rotate (0.5, -0.5, -1) -> +1 m x.
    expect(Array.from(part.positions.subarray(0, 3))).toEqual([1500, -500, -1000].map((x) => expect.closeTo(x, 2)));
    // The +X face normal becomes -Z.
    expect(Array.from(part.normals!.subarray(0, 3))).toEqual([0, 0, -1].map((x) => expect.closeTo(x, 5)));
    expect(signedVolume(part)).toBeCloseTo(2e9, -3);
  });

  it("keeps faces outward under a mirroring transform", async () => {
    const part = (await readMesh(await glbWithNode((n) => n.setScale([-1, 1, 1])))).parts[0]!;
    expect(signedVolume(part)).toBeCloseTo(1e9, -3);
    expect(part.normals![0]).toBeCloseTo(-1, 5); // +X face mirrored to -X
  });
});
