/**
 * Wavefront OBJ writer. Plain OBJ text for geometry without materials, else a ZIP
 * (model.obj + model.mtl + PNG textures): any material (a segment's colour, a texture)
 * needs the MTL, and more than one file travels zipped. Vertex colours use the `v x y z r g b`
 * extension (sRGB, as read by MeshLab / three.js); uvs are flipped to OBJ's bottom-left origin.
 * The text is written in byte chunks (TextWriter), deflated as it is produced when zipped, so
 * multi-million-triangle meshes need neither giant strings nor a second copy of the text.
 */
import type { Material, Scene } from "@/lib/engine/mesh/types";
import { PngCache, assertValidScene, concatBytes, fmt, hasAttr, linearToSrgb, safeName, uniqueNamer } from "./common";
import { TextWriter, literal } from "./text-writer";
import { ZipEntryWriter, zipEntries, zipEntry } from "./zip-deflate";

export interface ObjOutput {
  bytes: Uint8Array;
  ext: "obj" | "zip";
}

const V = literal("v "),
  VT = literal("vt "),
  VN = literal("vn ");

interface MtlEntry {
  name: string;
  material: Material;
  texture?: string;
}

export async function writeObj(scene: Scene): Promise<ObjOutput> {
  assertValidScene(scene);
  const withMtl = scene.parts.some((p) => p.material);
  const materials = new Map<Material, MtlEntry>();
  const textures = new Map<string, Promise<Uint8Array>>();
  const pngs = new PngCache();
  const matName = uniqueNamer();
  const objName = uniqueNamer();

  if (withMtl) {
    for (const part of scene.parts) {
      const m = part.material;
      if (!m || materials.has(m)) continue;
      const entry: MtlEntry = { name: matName(safeName(m.name, "material")), material: m };
      if (m.baseColorTexture) {
        entry.texture = `texture_${textures.size}.png`;
        textures.set(entry.texture, pngs.get(m.baseColorTexture)); // encodes while the text is written
      }
      materials.set(m, entry);
    }
  }

  // The OBJ text is streamed: straight into the ZIP's deflater, or kept as chunks.
  const entry = withMtl ? new ZipEntryWriter("model.obj", true) : undefined;
  const w = new TextWriter(entry ? (chunk) => entry.write(chunk) : undefined);
  w.str("# x3d OBJ export, units: millimetres, +Y up\n");
  if (withMtl) w.str("mtllib model.mtl\n");
  let vBase = 1,
    vtBase = 1,
    vnBase = 1;
  for (const part of scene.parts) {
    const n = part.positions.length / 3;
    const p = part.positions;
    const colors = hasAttr(part.colors, part, 3) ? part.colors : undefined;
    const uvs = hasAttr(part.uvs, part, 2) ? part.uvs : undefined;
    const normals = hasAttr(part.normals, part, 3) ? part.normals : undefined;
    w.str(`o ${objName(safeName(part.name, "part"))}\n`);
    for (let i = 0; i < n; i++) {
      w.bytes(V)
        .num(p[i * 3]!)
        .ch(32)
        .num(p[i * 3 + 1]!)
        .ch(32)
        .num(p[i * 3 + 2]!);
      if (colors) {
        w.ch(32)
          .num(linearToSrgb(colors[i * 3]!))
          .ch(32)
          .num(linearToSrgb(colors[i * 3 + 1]!))
          .ch(32)
          .num(linearToSrgb(colors[i * 3 + 2]!));
      }
      w.ch(10);
    }
    if (uvs)
      for (let i = 0; i < n; i++)
        w.bytes(VT)
          .num(uvs[i * 2]!)
          .ch(32)
          .num(1 - uvs[i * 2 + 1]!)
          .ch(10);
    if (normals) {
      for (let i = 0; i < n; i++)
        w.bytes(VN)
          .num(normals[i * 3]!)
          .ch(32)
          .num(normals[i * 3 + 1]!)
          .ch(32)
          .num(normals[i * 3 + 2]!)
          .ch(10);
    }
    const mtl = part.material ? materials.get(part.material) : undefined;
    if (mtl) w.str(`usemtl ${mtl.name}\n`);
    // Corners are v, v/vt, v//vn or v/vt/vn; vertices, uvs and normals share numbering per part.
    const same = (!uvs || vtBase === vBase) && (!normals || vnBase === vBase) && (!!uvs || !normals);
    const corner = (i: number): void => {
      if (same) {
        w.intRepeat(vBase + i, 47, 1 + (uvs ? 1 : 0) + (normals ? 1 : 0));
        return;
      }
      w.int(vBase + i);
      if (uvs) w.ch(47).int(vtBase + i);
      if (normals) (uvs ? w.ch(47) : w.str("//")).int(vnBase + i);
    };
    const idx = part.indices;
    for (let t = 0; t < idx.length; t += 3) {
      w.ch(102).ch(32);
      corner(idx[t]!);
      w.ch(32);
      corner(idx[t + 1]!);
      w.ch(32);
      corner(idx[t + 2]!);
      w.ch(10);
    }
    vBase += n;
    if (uvs) vtBase += n;
    if (normals) vnBase += n;
  }
  const chunks = w.finish();
  if (!entry) return { bytes: concatBytes(chunks), ext: "obj" };
  entry.close();

  // More than one file: OBJ + MTL + textures travel as one ZIP (PNGs stored, text deflated).
  const entries = [entry, zipEntry("model.mtl", writeMtl([...materials.values()]), true)];
  for (const [name, png] of textures) entries.push(zipEntry(name, await png, false));
  return { bytes: zipEntries(entries), ext: "zip" };
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
