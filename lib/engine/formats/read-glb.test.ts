/**
 * GLBs whose JSON claims more than their binary data holds: the Khronos glTF-Validator reports an
 * error for each, and readMesh refuses each (MeshDecodeError, which fails the task as bad input
 * and refunds it) instead of reading a neighbour's bytes as a mesh. Each file is a valid hand-made
 * square (squareGltf) with one field broken.
 */
import { createRequire } from "node:module";
import { Document, Logger, NodeIO } from "@gltf-transform/core";
import { EXTMeshoptCompression } from "@gltf-transform/extensions";
import { meshopt } from "@gltf-transform/functions";
import { MeshoptEncoder } from "meshoptimizer/encoder";
import { describe, expect, it } from "vitest";
import { rawGlb, squareGltf, type LooseGltf } from "./fixtures.test-helpers";
import { MeshDecodeError, readMesh } from "./read-mesh";

interface ValidatorReport {
  issues: { messages: { code: string; severity: number; pointer?: string }[] };
}
// The package ships no type declarations (as in gltf-validation.test.ts).
const { validateBytes } = createRequire(import.meta.url)("gltf-validator") as {
  validateBytes(data: Uint8Array, options: { format: "glb"; maxIssues: number; writeTimestamp: boolean }): Promise<ValidatorReport>;
};

/** The validator's error codes for a GLB (severity 0), in its order. */
async function validatorErrors(glb: Uint8Array): Promise<string[]> {
  const report = await validateBytes(glb, { format: "glb", maxIssues: 0, writeTimestamp: false });
  return report.issues.messages.filter((m) => m.severity === 0).map((m) => m.code);
}

/** The square with one change made to its JSON and binary data. */
function square(change: (json: LooseGltf, bin: Uint8Array) => void): Uint8Array {
  const { json, bin } = squareGltf();
  change(json, bin);
  return rawGlb(json, bin);
}

const setIndex = (bin: Uint8Array, at: number, value: number) => new DataView(bin.buffer).setUint16(96 + 2 * at, value, true);

/** readMesh's refusal of a GLB: its MeshDecodeError. */
async function refusal(glb: Uint8Array): Promise<MeshDecodeError> {
  const err = await readMesh(glb).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, "readMesh read the file instead of refusing it").toBeInstanceOf(MeshDecodeError);
  return err as MeshDecodeError;
}

describe("hand-made GLBs the reader takes", () => {
  it("the square itself: no validator error, two triangles with normals, in millimetres", async () => {
    const glb = square(() => {});
    expect(await validatorErrors(glb)).toEqual([]);
    const [part, ...rest] = (await readMesh(glb)).parts;
    expect(rest).toEqual([]);
    expect(Array.from(part!.positions)).toEqual([0, 0, 0, 1000, 0, 0, 1000, 1000, 0, 0, 1000, 0]);
    expect(Array.from(part!.indices)).toEqual([0, 1, 2, 0, 2, 3]);
    expect(Array.from(part!.normals!)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
  });

  it("positions and normals interleaved in one view (byteStride 24), read to its last byte", async () => {
    const glb = square((json, bin) => {
      const f = new Float32Array(bin.buffer, 0, 24);
      const [pos, nor] = [f.slice(0, 12), f.slice(12, 24)];
      for (let v = 0; v < 4; v++) f.set([...pos.subarray(3 * v, 3 * v + 3), ...nor.subarray(3 * v, 3 * v + 3)], 6 * v);
      json.bufferViews[0] = { buffer: 0, byteOffset: 0, byteLength: 96, byteStride: 24, target: 34962 };
      json.bufferViews[1] = { buffer: 0, byteOffset: 96, byteLength: 12, target: 34963 };
      json.bufferViews.pop();
      json.accessors[1].bufferView = 0;
      json.accessors[1].byteOffset = 12;
      json.accessors[2].bufferView = 1;
    });
    expect(await validatorErrors(glb)).toEqual([]);
    const [part] = (await readMesh(glb)).parts;
    expect(Array.from(part!.positions)).toEqual([0, 0, 0, 1000, 0, 0, 1000, 1000, 0, 0, 1000, 0]);
    expect(Array.from(part!.normals!)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
  });

  it("a sparse accessor whose indices and values end at their views' last byte", async () => {
    // Vertex 2 moved to (1, 2, 0) by one sparse value: u8 index 2 in bytes 108..109, the value in 112..124.
    const { json, bin } = squareGltf();
    const big = new Uint8Array(124);
    big.set(bin);
    big[108] = 2;
    new Float32Array(big.buffer, 112, 3).set([1, 2, 0]);
    json.buffers[0].byteLength = 124;
    json.bufferViews.push({ buffer: 0, byteOffset: 108, byteLength: 1 }, { buffer: 0, byteOffset: 112, byteLength: 12 });
    json.accessors[0].max = [1, 2, 0];
    json.accessors[0].sparse = { count: 1, indices: { bufferView: 3, componentType: 5121 }, values: { bufferView: 4 } };
    const glb = rawGlb(json, big);
    expect(await validatorErrors(glb)).toEqual([]);
    expect(Array.from((await readMesh(glb)).parts[0]!.positions.subarray(6, 9))).toEqual([1000, 2000, 0]);
  });

  it("a meshopt-compressed GLB (its views decode from a buffer, into a fallback buffer without bytes)", async () => {
    const doc = new Document().setLogger(new Logger(Logger.Verbosity.SILENT));
    const buffer = doc.createBuffer();
    const positions = doc
      .createAccessor()
      .setType("VEC3")
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]))
      .setBuffer(buffer);
    const indices = doc
      .createAccessor()
      .setType("SCALAR")
      .setArray(new Uint16Array([0, 1, 2, 0, 2, 3]))
      .setBuffer(buffer);
    const prim = doc.createPrimitive().setAttribute("POSITION", positions).setIndices(indices);
    doc.createScene().addChild(doc.createNode("square").setMesh(doc.createMesh().addPrimitive(prim)));
    await MeshoptEncoder.ready;
    await doc.transform(meshopt({ encoder: MeshoptEncoder, level: "medium" }));
    const io = new NodeIO().registerExtensions([EXTMeshoptCompression]).registerDependencies({ "meshopt.encoder": MeshoptEncoder });
    io.setLogger(new Logger(Logger.Verbosity.SILENT));
    const glb = await io.writeBinary(doc);
    const json = (await io.binaryToJSON(glb)).json;
    expect(json.extensionsUsed).toContain("EXT_meshopt_compression");
    expect(json.buffers!.some((b) => (b.extensions?.EXT_meshopt_compression as { fallback?: boolean })?.fallback)).toBe(true);
    const [part] = (await readMesh(glb)).parts;
    expect(part!.indices).toHaveLength(6);
    expect(part!.positions).toHaveLength(12);
  });
});

describe("GLBs whose data claims are false are refused, as glTF-Validator refuses them", () => {
  it("an accessor whose count runs past its buffer view (into the next view's bytes)", async () => {
    const glb = square((json) => {
      json.accessors[0].count = 5;
      json.accessors[1].count = 5;
    });
    expect(await validatorErrors(glb)).toContain("ACCESSOR_TOO_LONG");
    expect((await refusal(glb)).message).toMatch(/^GLB accessor 0 claims bytes 0\.\.60 of bufferView 0, which holds 48$/);
  });

  it("an accessor whose byteOffset within its view pushes its end past the view", async () => {
    const glb = square((json) => void (json.accessors[0].byteOffset = 12));
    expect(await validatorErrors(glb)).toContain("ACCESSOR_TOO_LONG");
    expect((await refusal(glb)).message).toMatch(/accessor 0 claims bytes 12\.\.60 of bufferView 0, which holds 48/);
  });

  it("an accessor whose view's byteStride spreads its elements past the view", async () => {
    const glb = square((json) => void (json.bufferViews[0].byteStride = 16));
    expect(await validatorErrors(glb)).toContain("ACCESSOR_TOO_LONG");
    expect((await refusal(glb)).message).toMatch(/accessor 0 claims bytes 0\.\.60 of bufferView 0, which holds 48/);
  });

  it("a view's byteStride shorter than its accessor's elements, or not a multiple of 4", async () => {
    const short = square((json) => void (json.bufferViews[0].byteStride = 8));
    expect(await validatorErrors(short)).toContain("ACCESSOR_SMALL_BYTESTRIDE");
    expect((await refusal(short)).message).toMatch(/accessor 0's elements of 12 bytes are longer than its view's byteStride 8/);
    const odd = square((json) => void (json.bufferViews[0].byteStride = 14));
    expect(await validatorErrors(odd)).toContain("VALUE_MULTIPLE_OF");
    expect((await refusal(odd)).message).toMatch(/bufferView 0 has byteStride 14/);
  });

  it("an index accessor whose count runs past its view (the BIN chunk's end)", async () => {
    const glb = square((json) => void (json.accessors[2].count = 9));
    expect(await validatorErrors(glb)).toContain("ACCESSOR_TOO_LONG");
    expect((await refusal(glb)).message).toMatch(/accessor 2 claims bytes 0\.\.18 of bufferView 2, which holds 12/);
  });

  it("a buffer view that runs past its buffer's byteLength", async () => {
    const glb = square((json) => void (json.buffers[0].byteLength = 100));
    expect(await validatorErrors(glb)).toContain("BUFFER_VIEW_TOO_LONG");
    expect((await refusal(glb)).message).toMatch(/bufferView 2 \(bytes 96\.\.108\) runs past its buffer's 100 bytes/);
  });

  it("a buffer that claims more bytes than the BIN chunk holds", async () => {
    const glb = square((json) => void (json.buffers[0].byteLength = 200));
    expect(await validatorErrors(glb)).toContain("BUFFER_BYTE_LENGTH_MISMATCH");
    expect((await refusal(glb)).message).toMatch(/buffer 0 claims 200 bytes, holds 108/);
  });

  it("a BIN chunk that claims more bytes than the file has, even when memory follows the file", async () => {
    const glb = square(() => {});
    new DataView(glb.buffer).setUint32(glb.length - 108 - 8, 124, true);
    expect(await validatorErrors(glb)).toContain("GLB_CHUNK_TOO_BIG");
    // The file as a view into a larger allocation (a pooled Buffer): the chunk would read on past the file.
    const pooled = new Uint8Array(glb.length + 64);
    pooled.set(glb);
    expect((await refusal(pooled.subarray(0, glb.length))).message).toMatch(/chunk at byte \d+ claims 124 bytes, past the end of the file/);
  });

  it("a sparse accessor whose values run past their view", async () => {
    const { json, bin } = squareGltf();
    const big = new Uint8Array(124);
    big.set(bin);
    big[108] = 2;
    json.buffers[0].byteLength = 124;
    json.bufferViews.push({ buffer: 0, byteOffset: 108, byteLength: 1 }, { buffer: 0, byteOffset: 112, byteLength: 12 });
    json.accessors[0].sparse = { count: 1, indices: { bufferView: 3, componentType: 5121 }, values: { bufferView: 4, byteOffset: 4 } };
    const glb = rawGlb(json, big);
    expect(await validatorErrors(glb)).toContain("ACCESSOR_TOO_LONG");
    expect((await refusal(glb)).message).toMatch(/accessor 0's sparse values claims bytes 4\.\.16 of bufferView 4, which holds 12/);
  });

  it("an index past the vertex count", async () => {
    const glb = square((_, bin) => setIndex(bin, 5, 4));
    expect(await validatorErrors(glb)).toContain("ACCESSOR_INDEX_OOB");
    expect((await refusal(glb)).message).toMatch(/GLB primitive index 4 out of range \(4 vertices\)/);
  });

  it("an index within the positions but past the normals: attributes of unequal count", async () => {
    const glb = square((json, bin) => {
      json.accessors[1].count = 3;
      setIndex(bin, 5, 3);
    });
    expect(await validatorErrors(glb)).toContain("MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT");
    expect((await refusal(glb)).message).toMatch(/mesh 0 primitive 0's NORMAL has 3 elements, another attribute 4/);
  });

  it("indices that are floats, not unsigned integers", async () => {
    const glb = square((json, bin) => {
      new Float32Array(bin.buffer, 96, 3).set([0, 1, 2]);
      json.accessors[2] = { bufferView: 2, componentType: 5126, count: 3, type: "SCALAR" };
    });
    expect(await validatorErrors(glb)).toContain("MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT");
    expect((await refusal(glb)).message).toMatch(/mesh 0 primitive 0's indices are not unsigned integer scalars/);
  });
});
