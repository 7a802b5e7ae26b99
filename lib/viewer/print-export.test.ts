import { DOMParser } from "@xmldom/xmldom";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { analyseMesh } from "./mesh-analysis";
import { cubeSoup, soupMesh } from "./mesh-analysis.test-helpers";
import { stlBinary, threeMf, toPrintFrame } from "./print-export";

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
