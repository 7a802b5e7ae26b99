import { describe, expect, it } from "vitest";
import { unzipSync } from "fflate";
import { write3mf } from "./threemf";
import { cube, icosphere, signedVolume, testScene } from "./fixtures.test-helpers";

interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

/** Tiny well-formedness-checking XML parser (elements, attributes, text; no DTDs or CDATA). */
function parseXml(xml: string): XmlNode {
  const root: XmlNode = { name: "#document", attrs: {}, children: [], text: "" };
  const stack: XmlNode[] = [root];
  const re = /<(\/?)([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*"[^"]*")*)\s*(\/?)>|<\?[^?]*\?>|([^<]+)/g;
  let last = 0;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    if (m.index !== last) throw new Error(`unparsable XML at offset ${last}`);
    last = re.lastIndex;
    const top = stack[stack.length - 1]!;
    if (m[5] !== undefined) {
      top.text += m[5];
      continue;
    }
    if (m[2] === undefined) continue; // <?xml ...?>
    if (m[1]) {
      if (top.name !== m[2]) throw new Error(`mismatched </${m[2]}> for <${top.name}>`);
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of (m[3] ?? "").matchAll(/([\w:.-]+)\s*=\s*"([^"]*)"/g)) attrs[a[1]!] = a[2]!;
    const node: XmlNode = { name: m[2], attrs, children: [], text: "" };
    top.children.push(node);
    if (!m[4]) stack.push(node);
  }
  if (last !== xml.length || stack.length !== 1) throw new Error("truncated XML");
  return root;
}

const child = (n: XmlNode, name: string): XmlNode => {
  const c = n.children.find((x) => x.name === name);
  if (!c) throw new Error(`<${n.name}> has no <${name}>`);
  return c;
};
const all = (n: XmlNode, name: string): XmlNode[] => n.children.filter((x) => x.name === name);

describe("write3mf", () => {
  it("writes a 3MF package with content types, relationships and a millimetre model", async () => {
    const files = unzipSync(await write3mf(testScene()));
    expect(Object.keys(files).slice(0, 3)).toEqual(["[Content_Types].xml", "_rels/.rels", "3D/3dmodel.model"]);
    const types = parseXml(new TextDecoder().decode(files["[Content_Types].xml"]!));
    const exts = all(child(types, "Types"), "Default").map((d) => d.attrs.Extension);
    expect(exts).toEqual(["rels", "model", "png"]);
    const rels = parseXml(new TextDecoder().decode(files["_rels/.rels"]!));
    expect(child(child(rels, "Relationships"), "Relationship").attrs.Target).toBe("/3D/3dmodel.model");
    expect(files["3D/Textures/texture_0.png"]!.subarray(1, 4)).toEqual(new TextEncoder().encode("PNG"));
    const texRels = parseXml(new TextDecoder().decode(files["3D/_rels/3dmodel.model.rels"]!));
    expect(child(child(texRels, "Relationships"), "Relationship").attrs.Target).toBe("/3D/Textures/texture_0.png");
  });

  it("round-trips vertex and triangle counts per object, Z up, outward winding", async () => {
    const files = unzipSync(await write3mf(testScene()));
    const model = child(parseXml(new TextDecoder().decode(files["3D/3dmodel.model"]!)), "model");
    expect(model.attrs.unit).toBe("millimeter");
    const resources = child(model, "resources");
    const objects = all(resources, "object");
    expect(objects.map((o) => o.attrs.name)).toEqual(["cube", "icosphere"]);
    const parts = objects.map((o) => {
      const mesh = child(o, "mesh");
      const verts = all(child(mesh, "vertices"), "vertex").map((v) => ["x", "y", "z"].map((k) => Number(v.attrs[k])));
      const tris = all(child(mesh, "triangles"), "triangle").map((t) => ["v1", "v2", "v3"].map((k) => Number(t.attrs[k])));
      return { positions: new Float32Array(verts.flat()), indices: new Uint32Array(tris.flat()), tris };
    });
    // The cube's 24 split vertices (4 per face, for uvs and normals) are welded to its 8 corners.
    expect(parts.map((p) => [p.positions.length / 3, p.indices.length / 3])).toEqual([
      [8, 12],
      [42, 80],
    ]);
    // Every object is a closed, consistently oriented mesh: each directed edge once, and its reverse once.
    for (const { tris } of parts) {
      const edges = new Map<string, number>();
      for (const [a, b, c] of tris) {
        expect(new Set([a, b, c]).size).toBe(3);
        for (const [u, v] of [
          [a, b],
          [b, c],
          [c, a],
        ] as const)
          edges.set(`${u},${v}`, (edges.get(`${u},${v}`) ?? 0) + 1);
      }
      for (const [key, count] of edges) {
        const [u, v] = key.split(",");
        expect(count, `edge ${key}`).toBe(1);
        expect(edges.get(`${v},${u}`), `edge ${key} has no opposite`).toBe(1);
      }
    }
    // Y-up (x, y, z) -> Z-up (x, -z, y): the first cube vertex (10, -10, 10) becomes (10, -10, -10).
    const c0 = cube().positions;
    expect(Array.from(parts[0]!.positions.subarray(0, 3))).toEqual([c0[0], -c0[2]!, c0[1]]);
    expect(signedVolume(parts[0]!)).toBeCloseTo(8000, 3);
    expect(signedVolume(parts[1]!)).toBeCloseTo(signedVolume(icosphere()), 2);
    // Build items reference each object.
    expect(all(child(model, "build"), "item").map((i) => i.attrs.objectid)).toEqual(objects.map((o) => o.attrs.id));
    // Textured cube: a texture2dgroup with one coordinate per vertex; sphere: a colorgroup.
    const texGroup = child(resources, "m:texture2dgroup");
    expect(all(texGroup, "m:tex2coord")).toHaveLength(24);
    // Texture coordinates stay per original vertex: p1..p3 index the 24 coordinates.
    const cubeTris = all(child(child(objects[0]!, "mesh"), "triangles"), "triangle");
    expect(cubeTris.map((t) => ["p1", "p2", "p3"].map((k) => Number(t.attrs[k])))).toEqual(
      Array.from({ length: 12 }, (_, t) => Array.from(cube().indices.subarray(t * 3, t * 3 + 3))),
    );
    expect(objects[0]!.attrs.pid).toBe(texGroup.attrs.id);
    const colors = all(child(resources, "m:colorgroup"), "m:color");
    expect(colors).toHaveLength(42);
    expect(colors[0]!.attrs.color).toMatch(/^#[0-9A-F]{8}$/);
  });

  it("uses base material display colours for plain parts", async () => {
    const files = unzipSync(await write3mf({ parts: [cube(10, [0, 0, 0], false)] }));
    const model = child(parseXml(new TextDecoder().decode(files["3D/3dmodel.model"]!)), "model");
    const base = child(child(child(model, "resources"), "basematerials"), "base");
    expect(base.attrs.displaycolor).toBe("#FFFFFFFF");
    expect(base.attrs.name).toBe("cube material");
    expect(Object.keys(files)).not.toContain("3D/_rels/3dmodel.model.rels");
  });
});
