import { describe, expect, it } from "vitest";
import { BufferGeometry, Mesh, MeshPhongMaterial, type Group } from "three";
import { FBXLoader } from "three/examples/jsm/loaders/FBXLoader.js";
import { writeFbx } from "./fbx";
import { cube, icosphere, testScene } from "./test-fixtures";

/** FBXLoader decodes embedded textures through an <img>; Node has no DOM, so give it a stub. */
function installImageShim(): { loaded: string[]; restore: () => void } {
  const g = globalThis as Record<string, unknown>;
  const had = "document" in g;
  const prev = g.document;
  const loaded: string[] = [];
  g.document = {
    createElementNS: () => {
      const listeners: Record<string, Array<() => void>> = {};
      return {
        addEventListener: (type: string, fn: () => void) => ((listeners[type] ??= []).push(fn)),
        removeEventListener: () => {},
        set src(v: string) {
          loaded.push(v);
          queueMicrotask(() => listeners.load?.forEach((fn) => fn()));
        },
      };
    },
  };
  const restore = (): void => {
    if (had) g.document = prev;
    else delete g.document;
  };
  return { loaded, restore };
}

function parse(bytes: Uint8Array): Group {
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return new FBXLoader().parse(ab, "");
}

const meshes = (group: Group): Mesh[] => group.children.filter((c): c is Mesh => c instanceof Mesh);

describe("writeFbx", () => {
  it("writes an ASCII FBX 7.4 file with mm units", async () => {
    const text = new TextDecoder().decode(await writeFbx(testScene()));
    expect(text.startsWith("; FBX 7.4.0 project file")).toBe(true);
    expect(text).toContain("FBXVersion: 7400");
    expect(text).toMatch(/P: "UnitScaleFactor", "double", "Number", "",0\.1\n/);
    // 12 + 80 triangles; every third PolygonVertexIndex entry is negative (bitwise-negated).
    const pvi = [...text.matchAll(/PolygonVertexIndex: \*(\d+) \{\n\t+a: ([^\n]*)/g)];
    expect(pvi.map((m) => Number(m[1]))).toEqual([36, 240]);
    const first = pvi[0]![2]!.split(",").map(Number);
    expect(first.slice(0, 6)).toEqual([0, 1, ~2, 0, 2, ~3]);
  });

  it("loads in three.js FBXLoader with the right counts, uvs, colours and material", async () => {
    const { loaded, restore } = installImageShim();
    try {
      const group = parse(await writeFbx(testScene()));
      const [c, s] = meshes(group);
      expect(meshes(group)).toHaveLength(2);
      expect(group.userData.unitScaleFactor).toBe(0.1);
      const cg = c!.geometry as BufferGeometry;
      const sg = s!.geometry as BufferGeometry;
      // FBXLoader de-indexes: 3 vertices per triangle.
      expect(cg.getAttribute("position").count).toBe(12 * 3);
      expect(sg.getAttribute("position").count).toBe(80 * 3);
      expect(cg.getAttribute("normal").count).toBe(36);
      expect(cg.getAttribute("uv").count).toBe(36);
      expect(sg.getAttribute("color").count).toBe(240);
      expect(sg.getAttribute("uv")).toBeUndefined();
      // First corner of the cube: position and uv (FBX flips v, three keeps it bottom-left).
      // Every de-indexed corner matches the source triangle's vertex, and uvs have v flipped.
      const src = cube();
      const pos = cg.getAttribute("position");
      const uv = cg.getAttribute("uv");
      src.indices.forEach((v, i) => {
        expect([pos.getX(i), pos.getY(i), pos.getZ(i)]).toEqual(
          Array.from(src.positions.subarray(v * 3, v * 3 + 3)).map((x) => expect.closeTo(x, 4)),
        );
        expect([uv.getX(i), uv.getY(i)]).toEqual([expect.closeTo(src.uvs![v * 2]!, 5), expect.closeTo(1 - src.uvs![v * 2 + 1]!, 5)]);
      });
      // Vertex colour round-trips (sRGB in the file, linear in three).
      const sphere = icosphere();
      const v0 = sphere.indices[0]!;
      expect(sg.getAttribute("color").getX(0)).toBeCloseTo(sphere.colors![v0 * 3]!, 3);
      const sm = s!.material as MeshPhongMaterial;
      expect(sm.color.r).toBeCloseTo(0.8, 3);
      expect(sm.color.g).toBeCloseTo(0.2, 3);
      const cm = c!.material as MeshPhongMaterial;
      expect(cm.map).toBeTruthy();
      expect(cm.map!.name).toContain("baseColor");
      // The embedded PNG reaches the image loader as a data URI.
      expect(loaded).toHaveLength(1);
      expect(loaded[0]!.startsWith("data:image/png;base64,iVBORw0KGgo")).toBe(true);
    } finally {
      restore();
    }
  });

  it("computes normals when the part has none", async () => {
    const part = cube(10, [0, 0, 0], false);
    delete part.normals;
    delete part.material;
    const group = parse(await writeFbx({ parts: [part] }));
    const g = meshes(group)[0]!.geometry as BufferGeometry;
    const n = g.getAttribute("normal");
    expect(n.count).toBe(36);
    // Corner 0 of the +X face: smooth normal of a cube corner, length 1, pointing outward.
    expect(Math.hypot(n.getX(0), n.getY(0), n.getZ(0))).toBeCloseTo(1, 5);
    expect(n.getX(0)).toBeGreaterThan(0);
  });
});
