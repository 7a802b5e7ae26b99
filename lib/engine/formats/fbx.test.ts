import { resolveObjectURL } from "node:buffer";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { BufferGeometry, Mesh, MeshPhongMaterial, type Group } from "three";
import { FBXLoader } from "three/examples/jsm/loaders/FBXLoader.js";
import { writeFbx } from "./fbx";
import { FBX_FOOT_ID, FBX_FOOT_MAGIC, FBX_HEAD_MAGIC, encodeFbxBinary, float32Array, int32Array, node } from "./fbx-binary";
import { cube, icosphere, testScene } from "./fixtures.test-helpers";

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
        addEventListener: (type: string, fn: () => void) => (listeners[type] ??= []).push(fn),
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

type Value = number | bigint | string | boolean | Uint8Array | number[] | bigint[];
interface ParsedNode {
  name: string;
  props: Value[];
  children: ParsedNode[];
}

/**
 * A reader as strict as Blender's io_scene_fbx/parse_fbx.py: every record must end exactly at
 * its EndOffset, nested lists must end in a 13-byte all-zero null record, the top level ends in
 * a null record, and the footer follows.
 */
function strictParse(bytes: Uint8Array): { version: number; nodes: ParsedNode[]; footerAt: number } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dec = new TextDecoder();
  let o = 0;
  const u32 = (): number => ((o += 4), dv.getUint32(o - 4, true));
  const take = (n: number): Uint8Array => ((o += n), bytes.subarray(o - n, o));
  const readArray = (type: string): number[] | bigint[] => {
    const length = u32(),
      encoding = u32(),
      byteLen = u32();
    expect([0, 1]).toContain(encoding);
    const stored = take(byteLen);
    const data = encoding === 1 ? new Uint8Array(inflateSync(stored)) : stored;
    const adv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const size = { i: 4, f: 4, d: 8, l: 8, b: 1 }[type]!;
    expect(data.byteLength).toBe(length * size);
    if (encoding === 1) expect(byteLen).toBeLessThan(length * size + 64);
    else expect(byteLen).toBeLessThanOrEqual(128);
    const out: Array<number | bigint> = [];
    for (let k = 0; k < length; k++) {
      const at = k * size;
      out.push(
        type === "i"
          ? adv.getInt32(at, true)
          : type === "f"
            ? adv.getFloat32(at, true)
            : type === "d"
              ? adv.getFloat64(at, true)
              : type === "l"
                ? adv.getBigInt64(at, true)
                : adv.getUint8(at),
      );
    }
    return out as number[] | bigint[];
  };
  const readProp = (): Value => {
    const type = String.fromCharCode(take(1)[0]!);
    switch (type) {
      case "Y":
        return ((o += 2), dv.getInt16(o - 2, true));
      case "C":
        return take(1)[0] !== 0;
      case "I":
        return ((o += 4), dv.getInt32(o - 4, true));
      case "F":
        return ((o += 4), dv.getFloat32(o - 4, true));
      case "D":
        return ((o += 8), dv.getFloat64(o - 8, true));
      case "L":
        return ((o += 8), dv.getBigInt64(o - 8, true));
      case "S":
        return dec.decode(take(u32()));
      case "R":
        return take(u32()).slice();
      case "i":
      case "f":
      case "d":
      case "l":
      case "b":
        return readArray(type);
      default:
        throw new Error(`unknown property type ${type} at ${o - 1}`);
    }
  };
  const readNode = (): ParsedNode | null => {
    const end = u32(),
      numProps = u32(),
      propsLen = u32();
    const name = dec.decode(take(take(1)[0]!));
    if (end === 0) {
      expect([numProps, propsLen, name]).toEqual([0, 0, ""]);
      return null;
    }
    const start = o;
    const props = Array.from({ length: numProps }, readProp);
    expect(o - start).toBe(propsLen);
    const children: ParsedNode[] = [];
    if (o < end) {
      while (o < end - 13) children.push(readNode()!);
      expect(Array.from(take(13))).toEqual(new Array(13).fill(0));
    }
    expect(o).toBe(end);
    return { name, props, children };
  };
  expect(Array.from(bytes.subarray(0, 23))).toEqual(Array.from(FBX_HEAD_MAGIC));
  o = 23;
  const version = u32();
  const nodes: ParsedNode[] = [];
  for (let n = readNode(); n; n = readNode()) nodes.push(n);
  return { version, nodes, footerAt: o };
}

const child = (n: ParsedNode, name: string): ParsedNode => {
  const c = n.children.find((x) => x.name === name);
  if (!c) throw new Error(`no ${name} in ${n.name}`);
  return c;
};

describe("writeFbx", () => {
  it("writes a binary FBX 7.4 file: magic header, records Blender's reader accepts, footer", async () => {
    const bytes = await writeFbx(testScene());
    expect(new TextDecoder().decode(bytes.subarray(0, 18))).toBe("Kaydara FBX Binary");
    expect(Array.from(bytes.subarray(18, 23))).toEqual([0x20, 0x20, 0x00, 0x1a, 0x00]);
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(23, true)).toBe(7400);
    // Footer: id, 4 zero bytes, padding to 16, version, 120 zero bytes, final magic.
    expect(Array.from(bytes.subarray(bytes.length - 16))).toEqual(Array.from(FBX_FOOT_MAGIC));
    expect(Array.from(bytes.subarray(bytes.length - 136, bytes.length - 16))).toEqual(new Array(120).fill(0));
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(dv.getUint32(bytes.length - 140, true)).toBe(7400);
    expect((bytes.length - 140) % 16).toBe(0);

    const { version, nodes, footerAt } = strictParse(bytes);
    expect(version).toBe(7400);
    expect(Array.from(bytes.subarray(footerAt, footerAt + 16))).toEqual(Array.from(FBX_FOOT_ID));
    const pad = bytes.length - 140 - (footerAt + 20);
    expect(pad).toBeGreaterThanOrEqual(1);
    expect(pad).toBeLessThanOrEqual(16);
    expect(Array.from(bytes.subarray(footerAt + 16, bytes.length - 140))).toEqual(new Array(4 + pad).fill(0));

    expect(nodes.map((n) => n.name)).toEqual([
      "FBXHeaderExtension",
      "FileId",
      "CreationTime",
      "Creator",
      "GlobalSettings",
      "Documents",
      "References",
      "Definitions",
      "Objects",
      "Connections",
    ]);
    const [header, , , , settings, , , definitions, objects, connections] = nodes as [ParsedNode, ...ParsedNode[]];
    expect(child(header, "FBXVersion").props).toEqual([7400]);
    const props70 = child(settings!, "Properties70").children;
    expect(props70.find((p) => p.props[0] === "UnitScaleFactor")!.props).toEqual(["UnitScaleFactor", "double", "Number", "", 0.1]);
    expect(props70.find((p) => p.props[0] === "UpAxis")!.props).toEqual(["UpAxis", "int", "Integer", "", 1]);
    const types = definitions!.children.filter((c) => c.name === "ObjectType").map((c) => [c.props[0], child(c, "Count").props[0]]);
    expect(types).toEqual([
      ["GlobalSettings", 1],
      ["Model", 2],
      ["Geometry", 2],
      ["Material", 2],
      ["Texture", 1],
      ["Video", 1],
    ]);

    // 12 + 80 triangles; every third PolygonVertexIndex entry is negative (bitwise-negated).
    const geos = objects!.children.filter((c) => c.name === "Geometry");
    // Binary object names are "Name\x00\x01Class" (ASCII "Class::Name").
    expect(geos.map((g) => g.props.slice(1))).toEqual([
      ["cube\x00\x01Geometry", "Mesh"],
      ["icosphere\x00\x01Geometry", "Mesh"],
    ]);
    const pvi = geos.map((g) => child(g, "PolygonVertexIndex").props[0] as number[]);
    expect(pvi.map((a) => a.length)).toEqual([36, 240]);
    expect(pvi[0]!.slice(0, 6)).toEqual([0, 1, ~2, 0, 2, ~3]);
    expect((child(geos[0]!, "Vertices").props[0] as number[]).length).toBe(cube().positions.length);
    // Ids are 64-bit; connections reference them.
    expect(typeof geos[0]!.props[0]).toBe("bigint");
    const cs = connections!.children;
    expect(cs.every((c) => c.name === "C")).toBe(true);
    expect(cs.some((c) => c.props[0] === "OO" && c.props[1] === geos[0]!.props[0])).toBe(true);
    expect(cs.filter((c) => c.props[0] === "OP").map((c) => c.props[3])).toEqual(["DiffuseColor"]);
    // Embedded PNG as raw bytes.
    const video = objects!.children.find((c) => c.name === "Video")!;
    const content = child(video, "Content").props[0] as Uint8Array;
    expect(Array.from(content.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it("encodes arrays raw up to 128 bytes and zlib-compressed above, with null records after nested lists", () => {
    const bytes = encodeFbxBinary([
      node("Small", [int32Array([1, -2, 3])]),
      node("Big", [float32Array(Array.from({ length: 100 }, (_, i) => i / 4))], [node("Empty"), node("Last")]),
    ]);
    const { nodes } = strictParse(bytes);
    expect(nodes[0]).toEqual({ name: "Small", props: [[1, -2, 3]], children: [] });
    expect(nodes[1]!.props[0]).toEqual(Array.from({ length: 100 }, (_, i) => i / 4));
    expect(nodes[1]!.children.map((c) => c.name)).toEqual(["Empty", "Last"]);
    // Encoding flags: raw for the 12-byte array, zlib for the 400-byte one.
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const smallProp = 27 + 13 + "Small".length;
    expect(String.fromCharCode(bytes[smallProp]!)).toBe("i");
    expect(dv.getUint32(smallProp + 5, true)).toBe(0);
    const bigAt = dv.getUint32(27, true);
    const bigProp = bigAt + 13 + "Big".length;
    expect(String.fromCharCode(bytes[bigProp]!)).toBe("f");
    expect(dv.getUint32(bigProp + 5, true)).toBe(1);
    expect(bytes[bigProp + 13]).toBe(0x78); // zlib header
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
      // The embedded PNG reaches the image loader as a blob URL holding the PNG bytes.
      expect(loaded).toHaveLength(1);
      expect(loaded[0]!.startsWith("blob:")).toBe(true);
      const blob = resolveObjectURL(loaded[0]!);
      expect(blob?.type).toBe("image/png");
      const png = new Uint8Array(await blob!.arrayBuffer());
      expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
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
