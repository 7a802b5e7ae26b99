/**
 * Wavefront OBJ writer. Plain OBJ text, or a ZIP (model.obj + model.mtl + PNG textures)
 * when any part has a base colour texture. Vertex colours use the `v x y z r g b`
 * extension (sRGB, as read by MeshLab / three.js); uvs are flipped to OBJ's bottom-left origin.
 */
import { zipSync } from "fflate";
import type { Material, Scene } from "@/lib/engine/mesh/types";
import { PngCache, assertValidScene, fmt, hasAttr, linearToSrgb, safeName, textEncoder, uniqueNamer } from "./common";

export interface ObjOutput {
  bytes: Uint8Array;
  ext: "obj" | "zip";
}

interface MtlEntry {
  name: string;
  material: Material;
  texture?: string;
}

export async function writeObj(scene: Scene): Promise<ObjOutput> {
  assertValidScene(scene);
  const textured = scene.parts.some((p) => p.material?.baseColorTexture);
  const materials = new Map<Material, MtlEntry>();
  const textures = new Map<string, Uint8Array>();
  const pngs = new PngCache();
  const matName = uniqueNamer();
  const objName = uniqueNamer();

  if (textured) {
    for (const part of scene.parts) {
      const m = part.material;
      if (!m || materials.has(m)) continue;
      const entry: MtlEntry = { name: matName(safeName(m.name, "material")), material: m };
      if (m.baseColorTexture) {
        entry.texture = `texture_${textures.size}.png`;
        textures.set(entry.texture, await pngs.get(m.baseColorTexture));
      }
      materials.set(m, entry);
    }
  }

  const lines: string[] = ["# x3d OBJ export, units: millimetres, +Y up"];
  if (textured) lines.push("mtllib model.mtl");
  let vBase = 1, vtBase = 1, vnBase = 1;
  for (const part of scene.parts) {
    const n = part.positions.length / 3;
    const p = part.positions;
    const colors = hasAttr(part.colors, part, 3) ? part.colors : undefined;
    const uvs = hasAttr(part.uvs, part, 2) ? part.uvs : undefined;
    const normals = hasAttr(part.normals, part, 3) ? part.normals : undefined;
    lines.push(`o ${objName(safeName(part.name, "part"))}`);
    for (let i = 0; i < n; i++) {
      let line = `v ${fmt(p[i * 3]!)} ${fmt(p[i * 3 + 1]!)} ${fmt(p[i * 3 + 2]!)}`;
      if (colors) {
        const r = linearToSrgb(colors[i * 3]!), g = linearToSrgb(colors[i * 3 + 1]!), b = linearToSrgb(colors[i * 3 + 2]!);
        line += ` ${fmt(r)} ${fmt(g)} ${fmt(b)}`;
      }
      lines.push(line);
    }
    if (uvs) for (let i = 0; i < n; i++) lines.push(`vt ${fmt(uvs[i * 2]!)} ${fmt(1 - uvs[i * 2 + 1]!)}`);
    if (normals) {
      for (let i = 0; i < n; i++) {
        lines.push(`vn ${fmt(normals[i * 3]!)} ${fmt(normals[i * 3 + 1]!)} ${fmt(normals[i * 3 + 2]!)}`);
      }
    }
    const entry = part.material ? materials.get(part.material) : undefined;
    if (entry) lines.push(`usemtl ${entry.name}`);
    const corner = (i: number): string => {
      const v = vBase + i;
      if (uvs && normals) return `${v}/${vtBase + i}/${vnBase + i}`;
      if (uvs) return `${v}/${vtBase + i}`;
      if (normals) return `${v}//${vnBase + i}`;
      return String(v);
    };
    const idx = part.indices;
    for (let t = 0; t < idx.length; t += 3) {
      lines.push(`f ${corner(idx[t]!)} ${corner(idx[t + 1]!)} ${corner(idx[t + 2]!)}`);
    }
    vBase += n;
    if (uvs) vtBase += n;
    if (normals) vnBase += n;
  }
  const obj = textEncoder.encode(lines.join("\n") + "\n");
  if (!textured) return { bytes: obj, ext: "obj" };

  const files: Record<string, Uint8Array> = {
    "model.obj": obj,
    "model.mtl": textEncoder.encode(writeMtl([...materials.values()])),
  };
  for (const [name, png] of textures) files[name] = png;
  return { bytes: zipSync(files, { level: 6, mtime: new Date(Date.UTC(2020, 0, 1)) }), ext: "zip" };
}

function writeMtl(entries: MtlEntry[]): string {
  const out: string[] = ["# x3d MTL export"];
  for (const { name, material: m, texture } of entries) {
    const [r, g, b, a] = m.baseColorFactor;
    out.push(
      "",
      `newmtl ${name}`,
      "Ka 0 0 0",
      `Kd ${fmt(linearToSrgb(r))} ${fmt(linearToSrgb(g))} ${fmt(linearToSrgb(b))}`,
      "Ks 0 0 0",
      `d ${fmt(a)}`,
      "illum 1",
      `Pr ${fmt(m.roughnessFactor)}`,
      `Pm ${fmt(m.metallicFactor)}`,
    );
    if (texture) out.push(`map_Kd ${texture}`);
  }
  return out.join("\n") + "\n";
}
