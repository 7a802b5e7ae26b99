import { describe, expect, it } from "vitest";
import { writeStl } from "./stl";
import { readMesh } from "./read-mesh";
import { cube, icosphere, signedVolume, testScene } from "./fixtures.test-helpers";

describe("writeStl", () => {
  it("writes a binary STL with all parts merged and computed facet normals, Z up", async () => {
    const bytes = await writeStl(testScene());
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(view.getUint32(80, true)).toBe(92);
    expect(bytes.length).toBe(84 + 50 * 92);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).not.toBe("solid");
    // Facet 0 is on the cube's +X face: normal (1, 0, 0) stays (1, 0, 0) in Z-up.
    expect([0, 1, 2].map((k) => view.getFloat32(84 + k * 4, true))).toEqual([1, 0, 0]);
    // Facet 4 is on the +Y face: Y-up +Y becomes Z-up +Z.
    expect([0, 1, 2].map((k) => view.getFloat32(84 + 4 * 50 + k * 4, true))).toEqual([0, 0, 1].map((x) => expect.closeTo(x, 6)));
  });

  it("round-trips through readMesh with merged vertices and Y up restored", async () => {
    const scene = await readMesh(await writeStl(testScene()));
    expect(scene.parts).toHaveLength(1);
    const part = scene.parts[0]!;
    // 24 cube corners merge to 8; the sphere's 42 vertices are already unique.
    expect(part.positions.length / 3).toBe(8 + 42);
    expect(part.indices.length / 3).toBe(92);
    let maxY = -Infinity;
    for (let i = 1; i < part.positions.length; i += 3) maxY = Math.max(maxY, part.positions[i]!);
    expect(maxY).toBeCloseTo(10, 5);
    const sphereVolume = signedVolume(icosphere());
    expect(signedVolume(part)).toBeCloseTo(8000 + sphereVolume, 1);
  });

  it("reads ASCII STL", async () => {
    const c = cube(2, [0, 0, 0], false);
    const facets: string[] = [];
    for (let t = 0; t < c.indices.length; t += 3) {
      const vs = [0, 1, 2].map((k) => {
        const v = c.indices[t + k]! * 3;
        // Z-up file coordinates for the Y-up cube: (x, -z, y).
        return `      vertex ${c.positions[v]} ${-c.positions[v + 2]!} ${c.positions[v + 1]}`;
      });
      facets.push("  facet normal 0 0 0", "    outer loop", ...vs, "    endloop", "  endfacet");
    }
    const ascii = `solid box\n${facets.join("\n")}\nendsolid box\n`;
    const scene = await readMesh(new TextEncoder().encode(ascii));
    expect(scene.parts[0]!.name).toBe("box");
    expect(scene.parts[0]!.positions.length / 3).toBe(8);
    expect(scene.parts[0]!.indices.length / 3).toBe(12);
    expect(signedVolume(scene.parts[0]!)).toBeCloseTo(8, 5);
  });
});
