import { Document, NodeIO } from "@gltf-transform/core";
import { describe, expect, it } from "vitest";
import { DRACO_EXTENSION, gltfExtensionsUsed } from "./gltf-extensions";

/** A GLB holding `json` as its JSON chunk (padded with spaces to 4 bytes) and no binary chunk. */
function glb(json: unknown): ArrayBuffer {
  let text = JSON.stringify(json);
  while (text.length % 4) text += " ";
  const body = new TextEncoder().encode(text);
  const out = new ArrayBuffer(20 + body.length);
  const view = new DataView(out);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, out.byteLength, true);
  view.setUint32(12, body.length, true);
  view.setUint32(16, 0x4e4f534a, true);
  new Uint8Array(out, 20).set(body);
  return out;
}

const asset = { asset: { version: "2.0" } };

describe("gltfExtensionsUsed", () => {
  it("reads extensionsUsed from a GLB's JSON chunk", () => {
    const bytes = glb({ ...asset, extensionsUsed: [DRACO_EXTENSION, "EXT_meshopt_compression"] });
    expect(gltfExtensionsUsed(bytes)).toEqual(["KHR_draco_mesh_compression", "EXT_meshopt_compression"]);
  });

  it("reads a glTF given as JSON text", () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ ...asset, extensionsUsed: [DRACO_EXTENSION] })).buffer;
    expect(gltfExtensionsUsed(bytes)).toEqual([DRACO_EXTENSION]);
  });

  it("finds none in a GLB written without extensions", async () => {
    const doc = new Document();
    doc.createScene().addChild(doc.createNode("n"));
    const written = await new NodeIO().writeBinary(doc);
    expect(gltfExtensionsUsed(written.slice().buffer)).toEqual([]);
  });

  it("finds none in bytes that are no glTF, a cut GLB, or a list of anything but names", () => {
    expect(gltfExtensionsUsed(new TextEncoder().encode("solid cube\nendsolid").buffer)).toEqual([]);
    expect(gltfExtensionsUsed(glb({ ...asset, extensionsUsed: [DRACO_EXTENSION] }).slice(0, 30))).toEqual([]);
    expect(gltfExtensionsUsed(glb({ ...asset, extensionsUsed: "KHR_draco_mesh_compression" }))).toEqual([]);
    expect(gltfExtensionsUsed(glb({ ...asset, extensionsUsed: [1, DRACO_EXTENSION] }))).toEqual([DRACO_EXTENSION]);
    expect(gltfExtensionsUsed(new ArrayBuffer(0))).toEqual([]);
  });
});
