import { DOMParser } from "@xmldom/xmldom";
import fc from "fast-check";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { readBinaryStl } from "@/lib/engine/formats/read-stl";
import { bumpySphere } from "./mesh-index.test-helpers";
import { stlBinary, threeMf, toPrintFrame, type PrintPart } from "./print-export";

type Triangle = number[][];

/** Triangles as a sorted list of keys, each starting at its smallest corner (winding kept). */
function canonical(triangles: Triangle[], round: (v: number) => number = (v) => v): string[] {
  return triangles
    .map((t) => {
      const keys = t.map((c) => c.map(round).join(","));
      const first = keys.indexOf([...keys].sort()[0]!);
      return [0, 1, 2].map((k) => keys[(first + k) % 3]).join(" ");
    })
    .sort();
}

function trianglesOf({ positions: p, indices }: { positions: Float32Array; indices: Uint32Array }): Triangle[] {
  const out: Triangle[] = [];
  for (let t = 0; t < indices.length; t += 3)
    out.push([0, 1, 2].map((k) => Array.from(p.subarray(indices[t + k]! * 3, indices[t + k]! * 3 + 3))));
  return out;
}

function readThreeMf(bytes: Uint8Array): { name: string; triangles: Triangle[]; xs: string[] }[] {
  const doc = new DOMParser().parseFromString(strFromU8(unzipSync(bytes)["3D/3dmodel.model"]!), "text/xml");
  return Array.from(doc.documentElement!.getElementsByTagName("object")).map((o) => {
    const vertices = Array.from(o.getElementsByTagName("vertex"));
    const points = vertices.map((v) => ["x", "y", "z"].map((a) => Number(v.getAttribute(a))));
    const triangles = Array.from(o.getElementsByTagName("triangle")).map((t) =>
      ["v1", "v2", "v3"].map((a) => points[Number(t.getAttribute(a))]!),
    );
    return { name: o.getAttribute("name")!, triangles, xs: vertices.map((v) => v.getAttribute("x")!) };
  });
}

const parts = (): PrintPart[] =>
  toPrintFrame(
    [
      { name: "ball", ...bumpySphere(20, 5) },
      { name: "small ball", ...bumpySphere(8, 9) },
    ],
    37.5,
  );

describe("print files read back", () => {
  it("binary STL: the same triangles, corner for corner, as the STL reader of the service reads them", () => {
    const written = parts();
    const read = readBinaryStl(stlBinary(written));
    // The reader turns STL's Z-up into the scene's Y-up: (x, y, z) -> (x, z, -y); undone here.
    const back = trianglesOf(read).map((t) => t.map(([x, y, z]) => [x!, -z! + 0, y!]));
    expect(canonical(back)).toEqual(canonical(written.flatMap(trianglesOf)));
  });

  it("3MF: every part's triangles at micrometre precision, parts in order", () => {
    const written = parts();
    const objects = readThreeMf(threeMf(written));
    expect(objects.map((o) => o.name)).toEqual(["ball", "small ball"]);
    const um = (v: number) => Math.round(v * 1000) / 1000 + 0;
    objects.forEach((o, i) => expect(canonical(o.triangles, um)).toEqual(canonical(trianglesOf(written[i]!), um)));
  });

  it("3MF numbers are written as String(Math.round(x * 1000) / 1000) writes them", () => {
    const value = fc.oneof(
      fc.double({ min: -1e7, max: 1e7, noNaN: true }),
      fc.integer({ min: -5000, max: 5000 }).map((k) => k / 1000 + 0.0005),
      fc.constantFrom(0, -0, 0.0004, -0.0004, 0.0005, -0.0005, 1e-9, 999.9995, -12.3456),
    );
    fc.assert(
      fc.property(fc.array(value, { minLength: 3, maxLength: 30 }), (xs) => {
        // One triangle per value, its x; y and z tell the corners apart so none weld.
        const corners = xs.flatMap((x, i) => [x, i, 0, x, i, 1, x, i, 2]);
        const part = {
          name: "n",
          positions: new Float32Array(corners),
          indices: Uint32Array.from(corners.map((_, i) => i).filter((i) => i < corners.length / 3)),
        };
        const { xs: written } = readThreeMf(threeMf([part]))[0]!;
        expect(written).toEqual(
          Array.from({ length: corners.length / 3 }, (_, v) => String(Math.round(part.positions[v * 3]! * 1000) / 1000)),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("3MF is a valid zip at every deflate level and reads the same", () => {
    const written = parts();
    const stored = readThreeMf(threeMf(written, 0));
    expect(readThreeMf(threeMf(written, 9))).toEqual(stored);
    expect(readThreeMf(threeMf(written))).toEqual(stored);
  });
});
