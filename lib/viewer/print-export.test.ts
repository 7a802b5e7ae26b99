import { DOMParser } from "@xmldom/xmldom";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { analyseMesh } from "./mesh-analysis";
import { cubeSoup, soupMesh } from "./mesh-analysis.test-helpers";
import zlib from "node:zlib";
import { bumpySphere } from "./mesh-index.test-helpers";
import { crc32, stlBinary, threeMf, toPrintFrame } from "./print-export";

/** Each entry of a zip's central directory: its name and the CRC-32 it records. */
function recordedCrcs(zip: Uint8Array): Map<string, number> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - 22;
  expect(view.getUint32(end, true)).toBe(0x06054b50);
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const out = new Map<string, number>();
  for (let i = 0; i < entries; i++) {
    expect(view.getUint32(at, true)).toBe(0x02014b50);
    const nameLength = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
    out.set(name, view.getUint32(at + 16, true));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return out;
}

const parts = () => [
  { name: "body", ...soupMesh(cubeSoup(1)) },
  { name: "arm <left>", ...soupMesh(cubeSoup(0.5, [2, 0, 0])) },
];

describe("print export", () => {
  it("turns Y-up into Z-up millimetres set on the plate", () => {
    const [body] = toPrintFrame([{ name: "tall", ...soupMesh(cubeSoup(1, [3, -1, 2])) }], 100);
    const a = analyseMesh(body!);
    expect(a.min).toEqual([0, 0, 0]);
    expect(a.max).toEqual([100, 100, 100]);
    // Turning is a rotation: the cube keeps facing outwards.
    expect(a.volume).toBeCloseTo(1e6, 0);
  });

  it("3MF says millimetre and holds one welded, closed object per part", () => {
    const files = unzipSync(threeMf(toPrintFrame(parts(), 100)));
    expect(Object.keys(files).sort()).toEqual(["3D/3dmodel.model", "[Content_Types].xml", "_rels/.rels"]);
    const rels = strFromU8(files["_rels/.rels"]!);
    expect(rels).toContain('Target="/3D/3dmodel.model"');
    const doc = new DOMParser().parseFromString(strFromU8(files["3D/3dmodel.model"]!), "text/xml");
    const model = doc.documentElement!;
    expect(model.getAttribute("unit")).toBe("millimeter");
    const objects = Array.from(model.getElementsByTagName("object"));
    expect(objects.map((o) => o.getAttribute("name"))).toEqual(["body", "arm <left>"]);
    expect(objects.map((o) => o.getElementsByTagName("vertex").length)).toEqual([8, 8]);
    expect(objects.map((o) => o.getElementsByTagName("triangle").length)).toEqual([12, 12]);
    expect(model.getElementsByTagName("item").length).toBe(2);
    const xs = Array.from(objects[1]!.getElementsByTagName("vertex")).map((v) => Number(v.getAttribute("x")));
    expect([Math.min(...xs), Math.max(...xs)]).toEqual([200, 250]);
  });

  it("CRC-32 eight bytes a step equals zlib's, for every length of the tail and carried across calls", () => {
    expect(~crc32(new TextEncoder().encode("123456789")) >>> 0).toBe(0xcbf43926);
    expect(~crc32(new Uint8Array(0)) >>> 0).toBe(0);
    const data = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7919 + (i >> 3)) & 255);
    for (let n = 0; n <= 17; n++) expect(~crc32(data.subarray(0, n)) >>> 0).toBe(zlib.crc32(data.subarray(0, n)));
    expect(~crc32(data.subarray(333), crc32(data.subarray(0, 333))) >>> 0).toBe(zlib.crc32(data));
  });

  it("3MF: each zip entry records the CRC-32 of its contents (slicers check it)", () => {
    // A megabyte and more of model XML: the CRC is carried over several pushes.
    const zip = threeMf(toPrintFrame([{ name: "ball", ...bumpySphere(160, 2) }], 100));
    const files = unzipSync(zip);
    const crcs = recordedCrcs(zip);
    expect([...crcs.keys()].sort()).toEqual(Object.keys(files).sort());
    expect(files["3D/3dmodel.model"]!.length).toBeGreaterThan(1 << 20);
    for (const [name, contents] of Object.entries(files)) expect(crcs.get(name), name).toBe(zlib.crc32(contents));
  });

  it("binary STL holds every triangle of every part, in millimetres", () => {
    const bytes = stlBinary(toPrintFrame(parts(), 100));
    const view = new DataView(bytes.buffer);
    expect(view.getUint32(80, true)).toBe(24);
    expect(bytes.length).toBe(84 + 24 * 50);
    let maxX = 0;
    for (let t = 0; t < 24; t++) for (let v = 0; v < 3; v++) maxX = Math.max(maxX, view.getFloat32(84 + t * 50 + 12 + v * 12, true));
    expect(maxX).toBe(250);
  });
});
