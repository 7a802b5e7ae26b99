/**
 * 3MF writer (core spec + materials extension). Millimetres; 3MF is Z up, so the
 * scene's (x, y, z) is written as (x, -z, y). One object + build item per part.
 * Parts with a base colour texture and uvs get a texture2dgroup; parts with vertex
 * colours get a colorgroup; others get their material's display colour.
 */
import { zipSync } from "fflate";
import type { Material, RasterImage, Scene } from "@/lib/engine/mesh/types";
import { PngCache, assertValidScene, fmt, hasAttr, linearToSrgb, textEncoder } from "./common";

const CORE_NS = "http://schemas.microsoft.com/3dmanufacturing/core/2015/02";
const MATERIAL_NS = "http://schemas.microsoft.com/3dmanufacturing/material/2015/02";
const MODEL_REL = "http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel";
const TEXTURE_REL = "http://schemas.microsoft.com/3dmanufacturing/2013/01/3dtexture";

export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&${{ "<": "lt", ">": "gt", "&": "amp", '"': "quot", "'": "apos" }[c]};`);
}

function hex(r: number, g: number, b: number, a = 1): string {
  const h = (x: number): string => Math.round(Math.min(1, Math.max(0, x)) * 255).toString(16).padStart(2, "0").toUpperCase();
  return `#${h(linearToSrgb(r))}${h(linearToSrgb(g))}${h(linearToSrgb(b))}${h(a)}`;
}

export async function write3mf(scene: Scene): Promise<Uint8Array> {
  assertValidScene(scene);
  let nextId = 1;
  const resources: string[] = [];
  const objects: string[] = [];
  const items: string[] = [];
  const files: Record<string, Uint8Array> = {};
  const textureIds = new Map<RasterImage, number>();
  const pngs = new PngCache();

  const materials = [...new Set(scene.parts.flatMap((p) => (p.material ? [p.material] : [])))];
  const baseId = materials.length > 0 ? nextId++ : 0;
  const baseIndex = new Map<Material, number>(materials.map((m, i) => [m, i]));
  if (baseId) {
    resources.push(`    <basematerials id="${baseId}">`);
    for (const m of materials) {
      resources.push(`      <base name="${escapeXml(m.name)}" displaycolor="${hex(...m.baseColorFactor)}"/>`);
    }
    resources.push("    </basematerials>");
  }

  for (const part of scene.parts) {
    if (part.indices.length === 0) continue; // 3MF objects need at least one triangle
    const n = part.positions.length / 3;
    let group: { id: number } | undefined;
    const tex = part.material?.baseColorTexture;
    if (tex && hasAttr(part.uvs, part, 2)) {
      let texId = textureIds.get(tex);
      if (texId === undefined) {
        texId = nextId++;
        textureIds.set(tex, texId);
        const path = `/3D/Textures/texture_${textureIds.size - 1}.png`;
        files[path.slice(1)] = await pngs.get(tex);
        resources.push(`    <m:texture2d id="${texId}" path="${path}" contenttype="image/png" tilestyleu="wrap" tilestylev="wrap"/>`);
      }
      group = { id: nextId++ };
      resources.push(`    <m:texture2dgroup id="${group.id}" texid="${texId}">`);
      const uv = part.uvs;
      for (let i = 0; i < n; i++) resources.push(`      <m:tex2coord u="${fmt(uv[i * 2]!)}" v="${fmt(1 - uv[i * 2 + 1]!)}"/>`);
      resources.push("    </m:texture2dgroup>");
    } else if (hasAttr(part.colors, part, 3)) {
      group = { id: nextId++ };
      const c = part.colors;
      resources.push(`    <m:colorgroup id="${group.id}">`);
      for (let i = 0; i < n; i++) resources.push(`      <m:color color="${hex(c[i * 3]!, c[i * 3 + 1]!, c[i * 3 + 2]!)}"/>`);
      resources.push("    </m:colorgroup>");
    }

    const objectId = nextId++;
    const prop = group
      ? ` pid="${group.id}" pindex="0"`
      : part.material
        ? ` pid="${baseId}" pindex="${baseIndex.get(part.material)}"`
        : "";
    objects.push(`    <object id="${objectId}" type="model" name="${escapeXml(part.name)}"${prop}>`, "      <mesh>", "        <vertices>");
    const p = part.positions;
    for (let i = 0; i < n; i++) {
      objects.push(`          <vertex x="${fmt(p[i * 3]!)}" y="${fmt(-p[i * 3 + 2]!)}" z="${fmt(p[i * 3 + 1]!)}"/>`);
    }
    objects.push("        </vertices>", "        <triangles>");
    const idx = part.indices;
    for (let t = 0; t < idx.length; t += 3) {
      const a = idx[t]!, b = idx[t + 1]!, c = idx[t + 2]!;
      const props = group ? ` pid="${group.id}" p1="${a}" p2="${b}" p3="${c}"` : "";
      objects.push(`          <triangle v1="${a}" v2="${b}" v3="${c}"${props}/>`);
    }
    objects.push("        </triangles>", "      </mesh>", "    </object>");
    items.push(`    <item objectid="${objectId}"/>`);
  }

  const model = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<model unit="millimeter" xml:lang="en-US" xmlns="${CORE_NS}" xmlns:m="${MATERIAL_NS}">`,
    '  <metadata name="Application">x3d</metadata>',
    "  <resources>",
    ...resources,
    ...objects,
    "  </resources>",
    "  <build>",
    ...items,
    "  </build>",
    "</model>",
    "",
  ].join("\n");

  const hasTextures = textureIds.size > 0;
  files["[Content_Types].xml"] = textEncoder.encode(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">',
      '  <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>',
      '  <Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>',
      ...(hasTextures ? ['  <Default Extension="png" ContentType="image/png"/>'] : []),
      "</Types>",
      "",
    ].join("\n"),
  );
  files["_rels/.rels"] = textEncoder.encode(relationships([["/3D/3dmodel.model", MODEL_REL]]));
  files["3D/3dmodel.model"] = textEncoder.encode(model);
  if (hasTextures) {
    const rels = [...textureIds.keys()].map((_, i): [string, string] => [`/3D/Textures/texture_${i}.png`, TEXTURE_REL]);
    files["3D/_rels/3dmodel.model.rels"] = textEncoder.encode(relationships(rels));
  }
  // Order: content types first (what most readers expect), then the rest.
  const ordered: Record<string, Uint8Array> = {};
  for (const name of ["[Content_Types].xml", "_rels/.rels", "3D/3dmodel.model"]) ordered[name] = files[name]!;
  for (const [name, data] of Object.entries(files)) if (!(name in ordered)) ordered[name] = data;
  return zipSync(ordered, { level: 6, mtime: new Date(Date.UTC(2020, 0, 1)) });
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
