import { BufferAttribute, BufferGeometry, Group, InterleavedBuffer, InterleavedBufferAttribute, Mesh } from "three";
import { describe, expect, it } from "vitest";
import { widenAttribute, widenUnalignedAttributes } from "./vertex-formats";

describe("widenAttribute", () => {
  it("turns 3 × int16 normalised into the floats WebGL reads, clamping at −1", () => {
    const a = new BufferAttribute(new Int16Array([32767, -32768, 0, 16384, -16384, 1]), 3, true);
    const w = widenAttribute(a)!;
    expect(w.array).toBeInstanceOf(Float32Array);
    expect(w.normalized).toBe(false);
    expect(w.count).toBe(2);
    for (let i = 0; i < 2; i++) for (let c = 0; c < 3; c++) expect(w.getComponent(i, c)).toBeCloseTo(a.getComponent(i, c), 6);
    expect(w.getY(0)).toBe(-1);
    expect(w.getX(1)).toBeCloseTo(16384 / 32767, 6);
  });

  it("reads an interleaved attribute at its offset and stride (meshopt's padded int16 vec3)", () => {
    // Two vertices, stride 4 int16: x y z pad.
    const data = new InterleavedBuffer(new Int16Array([100, 200, 300, 7, -100, -200, -300, 7]), 4);
    const a = new InterleavedBufferAttribute(data, 3, 0, true);
    const w = widenAttribute(a)!;
    expect(Array.from(w.array, (v) => Math.round(v * 32767))).toEqual([100, 200, 300, -100, -200, -300]);
  });

  it("keeps integer values as they are when the attribute is not normalised, and unsigned bytes too", () => {
    const w = widenAttribute(new BufferAttribute(new Uint8Array([1, 2, 255]), 3, false))!;
    expect(Array.from(w.array)).toEqual([1, 2, 255]);
    const n = widenAttribute(new BufferAttribute(new Uint8Array([255, 0, 51]), 3, true))!;
    expect(Array.from(n.array)).toEqual([1, 0, 0.2].map((v) => Math.fround(v)));
  });

  it("leaves formats every GPU API has: floats, 2 × uint16, 4 × int8", () => {
    expect(widenAttribute(new BufferAttribute(new Float32Array(6), 3))).toBeNull();
    expect(widenAttribute(new BufferAttribute(new Uint16Array(4), 2, true))).toBeNull();
    expect(widenAttribute(new BufferAttribute(new Int8Array(8), 4, true))).toBeNull();
  });
});

describe("widenUnalignedAttributes", () => {
  it("replaces the unaligned attributes of every mesh once, even when meshes share a geometry", () => {
    const g = new BufferGeometry();
    g.setAttribute("position", new BufferAttribute(new Int16Array([0, 32767, 0, 32767, 0, 0, 0, 0, 32767]), 3, true));
    g.setAttribute("normal", new BufferAttribute(new Int8Array([0, 0, 127, 0, 0, 127, 0, 0, 127]), 3, true));
    g.setAttribute("uv", new BufferAttribute(new Uint16Array(6), 2, true));
    const root = new Group().add(new Mesh(g), new Mesh(g));
    expect(widenUnalignedAttributes(root)).toBe(2);
    expect(g.getAttribute("position").array).toBeInstanceOf(Float32Array);
    expect(g.getAttribute("normal").getZ(0)).toBe(1);
    expect(g.getAttribute("uv").array).toBeInstanceOf(Uint16Array);
  });
});
