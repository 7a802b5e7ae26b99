/**
 * Files for printing, pure: binary STL and 3MF (core spec, unit millimeter, one object per
 * part) from triangle meshes already in millimetres. The viewer is Y-up; both formats are
 * Z-up (slicers treat +Z as up), so `toPrintFrame` turns the model and sets it on the plate.
 */
import { faceNormals } from "./face-normals";
import { strToU8, zipSync } from "fflate";
import { weldByPosition, type MeshInput } from "./mesh-analysis";

export interface PrintPart extends MeshInput {
  name: string;
}

/**
 * Scales Y-up model coordinates by `scale` into Z-up millimetres, (x, y, z) -> (x, -z, y),
 * with the whole model's bounding box starting at 0 on every axis (on the build plate).
 */
export function toPrintFrame(parts: PrintPart[], scale: number): PrintPart[] {
  const min = [Infinity, Infinity, Infinity];
  const turned = parts.map((part) => {
    const p = part.positions;
    const out = new Float32Array(p.length);
    for (let i = 0; i < p.length; i += 3) {
      out[i] = (p[i] ?? 0) * scale;
      out[i + 1] = -(p[i + 2] ?? 0) * scale;
      out[i + 2] = (p[i + 1] ?? 0) * scale;
    }
    for (const t of part.indices) {
      for (let k = 0; k < 3; k++) min[k] = Math.min(min[k] ?? 0, out[t * 3 + k] ?? 0);
    }
    return { ...part, positions: out };
  });
  for (const part of turned) {
    const p = part.positions;
    for (let i = 0; i < p.length; i += 3) {
      for (let k = 0; k < 3; k++) p[i + k] = (p[i + k] ?? 0) - (Number.isFinite(min[k]) ? (min[k] ?? 0) : 0);
    }
  }
  return turned;
}

/** One binary STL of every part's triangles (STL has no objects), with facet normals. */
export function stlBinary(parts: PrintPart[]): Uint8Array {
  const triangles = parts.reduce((n, part) => n + Math.floor(part.indices.length / 3), 0);
  const bytes = new Uint8Array(84 + triangles * 50);
  const view = new DataView(bytes.buffer);
  bytes.set(strToU8("x3d studio print export, millimetres, Z up").subarray(0, 80));
  view.setUint32(80, triangles, true);
  let o = 84;
  for (const { positions: p, indices } of parts) {
    const normals = faceNormals(p, indices);
    for (let t = 0; t + 2 < indices.length; t += 3) {
      const a = (indices[t] ?? 0) * 3,
        b = (indices[t + 1] ?? 0) * 3,
        c = (indices[t + 2] ?? 0) * 3;
      view.setFloat32(o, normals[t] ?? 0, true);
      view.setFloat32(o + 4, normals[t + 1] ?? 0, true);
      view.setFloat32(o + 8, normals[t + 2] ?? 0, true);
      o += 12;
      for (const v of [a, b, c]) {
        view.setFloat32(o, p[v] ?? 0, true);
        view.setFloat32(o + 4, p[v + 1] ?? 0, true);
        view.setFloat32(o + 8, p[v + 2] ?? 0, true);
        o += 12;
      }
      o += 2; // attribute byte count, 0
    }
  }
  return bytes;
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>`;
const RELS = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>`;

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
// Micrometre precision is far below any printer's resolution and keeps the file short.
const num = (x: number) => String(Math.round(x * 1000) / 1000);

function objectXml(part: PrintPart, id: number): string {
  const { ids, count } = weldByPosition(part.positions);
  const firstOf = new Int32Array(count).fill(-1);
  for (let i = 0; i < ids.length; i++) if ((firstOf[ids[i] ?? 0] ?? 0) < 0) firstOf[ids[i] ?? 0] = i;
  const p = part.positions;
  const vertices: string[] = [];
  for (const i of firstOf) vertices.push(`<vertex x="${num(p[i * 3] ?? 0)}" y="${num(p[i * 3 + 1] ?? 0)}" z="${num(p[i * 3 + 2] ?? 0)}"/>`);
  const triangles: string[] = [];
  for (let t = 0; t + 2 < part.indices.length; t += 3) {
    const a = ids[part.indices[t] ?? 0] ?? 0,
      b = ids[part.indices[t + 1] ?? 0] ?? 0,
      c = ids[part.indices[t + 2] ?? 0] ?? 0;
    if (a !== b && b !== c && a !== c) triangles.push(`<triangle v1="${a}" v2="${b}" v3="${c}"/>`);
  }
  return (
    `<object id="${id}" type="model" name="${escapeXml(part.name)}"><mesh>` +
    `<vertices>${vertices.join("")}</vertices><triangles>${triangles.join("")}</triangles></mesh></object>`
  );
}

/** A 3MF package in millimetres: one object (and one build item) per part. */
export function threeMf(parts: PrintPart[]): Uint8Array {
  const objects = parts.map((part, i) => objectXml(part, i + 1)).join("");
  const items = parts.map((_, i) => `<item objectid="${i + 1}"/>`).join("");
  const model =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<model unit="millimeter" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">` +
    `<metadata name="Application">x3d studio</metadata><resources>${objects}</resources><build>${items}</build></model>`;
  return zipSync({
    "[Content_Types].xml": strToU8(CONTENT_TYPES),
    "_rels/.rels": strToU8(RELS),
    "3D/3dmodel.model": strToU8(model),
  });
}
