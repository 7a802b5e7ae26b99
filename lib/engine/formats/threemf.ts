/**
 * 3MF writer (core spec + materials extension). Millimetres; 3MF is Z up, so the
 * scene's (x, y, z) is written as (x, -z, y). One object + build item per part.
 * Vertices are welded by their written (6-decimal) position, so a closed part split for
 * uvs/normals is a closed object; triangles that collapse in the weld are dropped.
 * The model XML is streamed into the ZIP's deflater in byte chunks (TextWriter).
 * Parts with a base colour texture and uvs get a texture2dgroup; parts with vertex
 * colours get a colorgroup; others get their material's display colour.
 */
import type { Material, RasterImage, Scene } from "@/lib/engine/mesh/types";
import { PngCache, assertValidScene, hasAttr, linearToSrgb, weldPositions } from "./common";
import { TextWriter, literal } from "./text-writer";
import { ZipEntryWriter, zipEntries, zipEntry } from "./zip-deflate";

const CORE_NS = "http://schemas.microsoft.com/3dmanufacturing/core/2015/02";
const MATERIAL_NS = "http://schemas.microsoft.com/3dmanufacturing/material/2015/02";
const MODEL_REL = "http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel";
const TEXTURE_REL = "http://schemas.microsoft.com/3dmanufacturing/2013/01/3dtexture";

// Per-vertex / per-triangle markup, pre-encoded (unindented: it is most of the file).
const TEX_U = literal('<m:tex2coord u="'),
  TEX_V = literal('" v="');
const VERTEX_X = literal('<vertex x="'),
  VERTEX_Y = literal('" y="'),
  VERTEX_Z = literal('" z="');
const TRI_V1 = literal('<triangle v1="'),
  TRI_V2 = literal('" v2="'),
  TRI_V3 = literal('" v3="');
const TRI_P1 = literal('" p1="'),
  TRI_P2 = literal('" p2="'),
  TRI_P3 = literal('" p3="');
const END = literal('"/>\n');

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&${{ "<": "lt", ">": "gt", "&": "amp", '"': "quot", "'": "apos" }[c]};`);
}

function hex(r: number, g: number, b: number, a = 1): string {
  const h = (x: number): string =>
    Math.round(Math.min(1, Math.max(0, x)) * 255)
      .toString(16)
      .padStart(2, "0")
      .toUpperCase();
  return `#${h(linearToSrgb(r))}${h(linearToSrgb(g))}${h(linearToSrgb(b))}${h(a)}`;
}

export async function write3mf(scene: Scene): Promise<Uint8Array> {
  assertValidScene(scene);
  let nextId = 1;
  const textureIds = new Map<RasterImage, number>();
  const texturePngs: Array<[string, Promise<Uint8Array>]> = [];
  const pngs = new PngCache();

  // The model XML is streamed into the ZIP entry's deflater chunk by chunk.
  const modelEntry = new ZipEntryWriter("3D/3dmodel.model", true);
  const w = new TextWriter((chunk) => modelEntry.write(chunk));
  w.str('<?xml version="1.0" encoding="UTF-8"?>\n');
  w.str(`<model unit="millimeter" xml:lang="en-US" xmlns="${CORE_NS}" xmlns:m="${MATERIAL_NS}">\n`);
  w.str('  <metadata name="Application">x3d</metadata>\n  <resources>\n');

  const materials = [...new Set(scene.parts.flatMap((p) => (p.material ? [p.material] : [])))];
  const baseId = materials.length > 0 ? nextId++ : 0;
  const baseIndex = new Map<Material, number>(materials.map((m, i) => [m, i]));
  if (baseId) {
    w.str(`    <basematerials id="${baseId}">\n`);
    for (const m of materials) w.str(`      <base name="${escapeXml(m.name)}" displaycolor="${hex(...m.baseColorFactor)}"/>\n`);
    w.str("    </basematerials>\n");
  }

  const items: number[] = [];
  for (const part of scene.parts) {
    if (part.indices.length === 0) continue; // 3MF objects need at least one triangle
    const n = part.positions.length / 3;
    let groupId: number | undefined;
    const tex = part.material?.baseColorTexture;
    if (tex && hasAttr(part.uvs, part, 2)) {
      let texId = textureIds.get(tex);
      if (texId === undefined) {
        texId = nextId++;
        textureIds.set(tex, texId);
        const path = `/3D/Textures/texture_${textureIds.size - 1}.png`;
        texturePngs.push([path, pngs.get(tex)]); // encodes while the XML is written
        w.str(`    <m:texture2d id="${texId}" path="${path}" contenttype="image/png" tilestyleu="wrap" tilestylev="wrap"/>\n`);
      }
      groupId = nextId++;
      w.str(`    <m:texture2dgroup id="${groupId}" texid="${texId}">\n`);
      const uv = part.uvs;
      for (let i = 0; i < n; i++)
        w.bytes(TEX_U)
          .num(uv[i * 2]!)
          .bytes(TEX_V)
          .num(1 - uv[i * 2 + 1]!)
          .bytes(END);
      w.str("    </m:texture2dgroup>\n");
    } else if (hasAttr(part.colors, part, 3)) {
      groupId = nextId++;
      const c = part.colors;
      w.str(`    <m:colorgroup id="${groupId}">\n`);
      for (let i = 0; i < n; i++) w.str(`      <m:color color="${hex(c[i * 3]!, c[i * 3 + 1]!, c[i * 3 + 2]!)}"/>\n`);
      w.str("    </m:colorgroup>\n");
    }

    // 3MF meshes must be closed and manifold: vertices split for uvs/normals are welded
    // (properties stay per original vertex through p1..p3), and triangles that collapse are dropped.
    const { remap, first } = weldPositions(part.positions);
    const objectId = nextId++;
    const prop =
      groupId !== undefined
        ? ` pid="${groupId}" pindex="0"`
        : part.material
          ? ` pid="${baseId}" pindex="${baseIndex.get(part.material)}"`
          : "";
    w.str(`    <object id="${objectId}" type="model" name="${escapeXml(part.name)}"${prop}>\n      <mesh>\n        <vertices>\n`);
    const p = part.positions;
    for (let k = 0; k < first.length; k++) {
      const i = first[k]!;
      w.bytes(VERTEX_X)
        .num(p[i * 3]!)
        .bytes(VERTEX_Y)
        .num(-p[i * 3 + 2]!)
        .bytes(VERTEX_Z)
        .num(p[i * 3 + 1]!)
        .bytes(END);
    }
    w.str("        </vertices>\n        <triangles>\n");
    const idx = part.indices;
    // Triangles inherit the object's pid; p1..p3 pick each corner's property.
    const grouped = groupId !== undefined;
    for (let t = 0; t < idx.length; t += 3) {
      const a = idx[t]!,
        b = idx[t + 1]!,
        c = idx[t + 2]!;
      const va = remap[a]!,
        vb = remap[b]!,
        vc = remap[c]!;
      if (va === vb || vb === vc || va === vc) continue;
      w.bytes(TRI_V1).int(va).bytes(TRI_V2).int(vb).bytes(TRI_V3).int(vc);
      if (grouped) w.bytes(TRI_P1).int(a).bytes(TRI_P2).int(b).bytes(TRI_P3).int(c);
      w.bytes(END);
    }
    w.str("        </triangles>\n      </mesh>\n    </object>\n");
    items.push(objectId);
  }
  w.str("  </resources>\n  <build>\n");
  for (const id of items) w.str(`    <item objectid="${id}"/>\n`);
  w.str("  </build>\n</model>\n");
  w.finish();
  modelEntry.close();

  const hasTextures = texturePngs.length > 0;
  const contentTypes = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">',
    '  <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>',
    '  <Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>',
    ...(hasTextures ? ['  <Default Extension="png" ContentType="image/png"/>'] : []),
    "</Types>",
    "",
  ].join("\n");
  // Order: content types first (what most readers expect), then the rest.
  const entries = [
    zipEntry("[Content_Types].xml", contentTypes, true),
    zipEntry("_rels/.rels", relationships([["/3D/3dmodel.model", MODEL_REL]]), true),
    modelEntry,
  ];
  if (hasTextures) {
    entries.push(zipEntry("3D/_rels/3dmodel.model.rels", relationships(texturePngs.map(([path]) => [path, TEXTURE_REL])), true));
    for (const [path, png] of texturePngs) entries.push(zipEntry(path.slice(1), await png, false));
  }
  return zipEntries(entries);
}

function relationships(rels: Array<[string, string]>): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">',
    ...rels.map(([target, type], i) => `  <Relationship Target="${target}" Id="rel${i}" Type="${type}"/>`),
    "</Relationships>",
    "",
  ].join("\n");
}
