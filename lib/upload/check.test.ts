import { describe, expect, it } from "vitest";
import { formatBytes } from "@/lib/files/format-bytes";
import { checkUpload, typeList } from "./check";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? Array.from(p, (c) => c.charCodeAt(0)) : p)));
const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "rest of png");
const GLB = bytes("glTF", [2, 0, 0, 0]);
const OBJ = bytes("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
const MB = 1024 * 1024;

describe("checkUpload", () => {
  it("accepts images and models by their bytes, whatever their names", () => {
    expect(checkUpload({ name: "photo.jpg", size: 5000, head: PNG, kind: "image" })).toEqual({ ok: true, kind: "image", type: "png" });
    expect(checkUpload({ name: "model", size: 5000, head: GLB, kind: "mesh" })).toEqual({ ok: true, kind: "mesh", type: "glb" });
    expect(checkUpload({ name: "m.obj", size: OBJ.length, head: OBJ })).toEqual({ ok: true, kind: "mesh", type: "obj" });
  });

  it("says what is wrong with the wrong type, naming the file", () => {
    const text = bytes("hello there");
    expect(checkUpload({ name: "notes.png", size: 11, head: text, kind: "image" })).toEqual({
      ok: false,
      reason: "type",
      error: "notes.png is not a PNG, JPEG or WebP image.",
    });
    expect(checkUpload({ name: "chair.png", size: 5000, head: PNG, kind: "mesh" }).ok).toBe(false);
    expect(checkUpload({ name: "m.obj", size: OBJ.length, head: OBJ, kind: "mesh", types: ["glb"] })).toMatchObject({
      error: "m.obj is not a GLB model (it is an OBJ model).",
    });
  });

  it("refuses images over 20 MB and models over 200 MB, before looking at the type", () => {
    expect(checkUpload({ name: "big.png", size: 21 * MB, head: PNG, kind: "image" })).toEqual({
      ok: false,
      reason: "size",
      error: "big.png is 21 MB: images may be at most 20 MB.",
    });
    expect(checkUpload({ name: "big.glb", size: 150 * MB, head: GLB, kind: "mesh" }).ok).toBe(true);
    expect(checkUpload({ name: "huge.glb", size: 201 * MB, head: GLB, kind: "mesh" })).toMatchObject({ reason: "size" });
    // Without a kind, the bytes decide which limit applies.
    expect(checkUpload({ name: "big.png", size: 25 * MB, head: PNG })).toMatchObject({
      reason: "size",
      error: "big.png is 25 MB: images may be at most 20 MB.",
    });
  });

  it("refuses empty files", () => {
    expect(checkUpload({ name: "e.png", size: 0, head: new Uint8Array(), kind: "image" })).toEqual({
      ok: false,
      reason: "empty",
      error: "e.png is empty.",
    });
  });
});

describe("wording", () => {
  it("formats sizes and type lists", () => {
    expect(formatBytes(20 * MB)).toBe("20 MB");
    expect(formatBytes(1.44 * MB)).toBe("1.4 MB");
    expect(formatBytes(2048)).toBe("2 KB");
    expect(formatBytes(80)).toBe("80 bytes");
    expect(typeList(["glb"])).toBe("GLB");
    expect(typeList(["glb", "stl", "obj"])).toBe("GLB, STL or OBJ");
  });
});
