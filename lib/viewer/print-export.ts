/**
 * Files for printing, pure: binary STL and 3MF (core spec, unit millimeter, one object per
 * part) from triangle meshes already in millimetres. The viewer is Y-up; both formats are
 * Z-up (slicers treat +Z as up), so `toPrintFrame` turns the model and sets it on the plate.
 */
import { faceNormals } from "./face-normals";
import { Deflate, strToU8, Zip, ZipPassThrough } from "fflate";
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
      view.setFloat32(o, p[a] ?? 0, true);
      view.setFloat32(o + 4, p[a + 1] ?? 0, true);
      view.setFloat32(o + 8, p[a + 2] ?? 0, true);
      view.setFloat32(o + 12, p[b] ?? 0, true);
      view.setFloat32(o + 16, p[b + 1] ?? 0, true);
      view.setFloat32(o + 20, p[b + 2] ?? 0, true);
      view.setFloat32(o + 24, p[c] ?? 0, true);
      view.setFloat32(o + 28, p[c + 1] ?? 0, true);
      view.setFloat32(o + 32, p[c + 2] ?? 0, true);
      o += 38; // three corners, then the attribute byte count, 0
    }
  }
  return bytes;
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>`;
const RELS = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>`;

/** CRC-32 (zip's) tables for eight bytes a step ("slicing by 8"): table k is the CRC of a byte followed by k zero bytes. */
const CRC_TABLES = (() => {
  const t = new Int32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n] ?? 0;
    for (let k = 1; k < 8; k++) {
      c = (t[c & 255] ?? 0) ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
})();

/**
 * The running CRC-32 `crc` (start at -1; the CRC is ~crc >>> 0) carried over `data`, eight bytes
 * a step: three times fflate's byte-a-step CRC, which took a tenth of a 2M-triangle 3MF's time.
 */
export function crc32(data: Uint8Array, crc = -1): number {
  const t = CRC_TABLES;
  let c = crc,
    i = 0;
  const n = data.length;
  for (; i + 8 <= n; i += 8) {
    const a = c ^ ((data[i] ?? 0) | ((data[i + 1] ?? 0) << 8) | ((data[i + 2] ?? 0) << 16) | ((data[i + 3] ?? 0) << 24));
    c =
      (t[1792 + (a & 255)] ?? 0) ^
      (t[1536 + ((a >>> 8) & 255)] ?? 0) ^
      (t[1280 + ((a >>> 16) & 255)] ?? 0) ^
      (t[1024 + (a >>> 24)] ?? 0) ^
      (t[768 + (data[i + 4] ?? 0)] ?? 0) ^
      (t[512 + (data[i + 5] ?? 0)] ?? 0) ^
      (t[256 + (data[i + 6] ?? 0)] ?? 0) ^
      (t[data[i + 7] ?? 0] ?? 0);
  }
  for (; i < n; i++) c = (t[(c ^ (data[i] ?? 0)) & 255] ?? 0) ^ (c >>> 8);
  return c;
}

/** A deflated zip entry as fflate's ZipDeflate writes it, its CRC by crc32 above. */
class ZipEntry extends ZipPassThrough {
  private readonly deflate: Deflate;
  private running = -1;
  constructor(name: string, level: DeflateLevel) {
    super(name);
    this.compression = 8;
    this.deflate = new Deflate({ level }, (data, final) => this.ondata(null, data, final));
  }

  override push(chunk: Uint8Array, final = false): void {
    this.running = crc32(chunk, this.running);
    this.size += chunk.length;
    if (final) this.crc = ~this.running >>> 0;
    this.deflate.push(chunk, final);
  }
}

type DeflateLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The XML of the model part streamed as bytes into a zip entry, a megabyte at a time. */
class XmlBytes {
  private buf = new Uint8Array(1 << 20);
  private at = 0;
  constructor(private readonly entry: ZipEntry) {}

  private room(n: number): void {
    if (this.at + n > this.buf.length) this.flush(false);
  }

  /** Pushes what is written so far into the zip entry (the last push with `final`). */
  flush(final: boolean): void {
    this.entry.push(this.buf.slice(0, this.at), final);
    this.at = 0;
  }

  /** A string as UTF-8 (text of any length: names, tags). */
  text(s: string): void {
    const bytes = strToU8(s);
    if (bytes.length > this.buf.length) {
      this.flush(false);
      this.entry.push(bytes);
      return;
    }
    this.room(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** Bytes already encoded (the short constant pieces of each line). */
  bytes(b: Uint8Array): void {
    this.room(b.length);
    for (let i = 0; i < b.length; i++) this.buf[this.at++] = b[i] ?? 0;
  }

  /** A whole number from 0 to 2^32 − 1 in decimal (vertex numbers: millions of them). */
  int(n: number): void {
    this.room(16);
    const buf = this.buf;
    if (n < 10) {
      buf[this.at++] = 48 + n;
      return;
    }
    let digits = 2;
    for (let p = 100; n >= p && digits < 10; p *= 10) digits++;
    let v = n,
      i = this.at + digits - 1;
    while (v >= 10) {
      const q = (v / 10) >>> 0;
      buf[i--] = 48 + (v - q * 10);
      v = q;
    }
    buf[i] = 48 + v;
    this.at += digits;
  }

  /**
   * `x` rounded to micrometres, as `String(Math.round(x * 1000) / 1000)` writes it (micrometre
   * precision is far below any printer's resolution and keeps the file short).
   */
  num(x: number): void {
    const m = Math.round(x * 1000);
    if (!Number.isSafeInteger(m)) {
      this.text(String(m / 1000));
      return;
    }
    this.room(24);
    if (m === 0) {
      this.buf[this.at++] = 48;
      return;
    }
    if (m < 0) this.buf[this.at++] = 45;
    const a = Math.abs(m);
    const whole = Math.floor(a / 1000);
    let frac = a - whole * 1000;
    this.int(whole);
    if (!frac) return;
    this.buf[this.at++] = 46;
    let places = 3;
    while (frac % 10 === 0) {
      frac /= 10;
      places--;
    }
    for (let i = places - 1; i >= 0; i--) {
      this.buf[this.at + i] = 48 + (frac % 10);
      frac = Math.floor(frac / 10);
    }
    this.at += places;
  }
}

const VERTEX_X = strToU8('<vertex x="'),
  Y = strToU8('" y="'),
  Z = strToU8('" z="'),
  END = strToU8('"/>'),
  TRIANGLE_1 = strToU8('<triangle v1="'),
  V2 = strToU8('" v2="'),
  V3 = strToU8('" v3="');

function writeObject(xml: XmlBytes, part: PrintPart, id: number): void {
  const { ids, count } = weldByPosition(part.positions);
  const firstOf = new Int32Array(count).fill(-1);
  for (let i = 0; i < ids.length; i++) if ((firstOf[ids[i] ?? 0] ?? 0) < 0) firstOf[ids[i] ?? 0] = i;
  const p = part.positions;
  xml.text(`<object id="${id}" type="model" name="${escapeXml(part.name)}"><mesh><vertices>`);
  for (const i of firstOf) {
    xml.bytes(VERTEX_X);
    xml.num(p[i * 3] ?? 0);
    xml.bytes(Y);
    xml.num(p[i * 3 + 1] ?? 0);
    xml.bytes(Z);
    xml.num(p[i * 3 + 2] ?? 0);
    xml.bytes(END);
  }
  xml.text("</vertices><triangles>");
  for (let t = 0; t + 2 < part.indices.length; t += 3) {
    const a = ids[part.indices[t] ?? 0] ?? 0,
      b = ids[part.indices[t + 1] ?? 0] ?? 0,
      c = ids[part.indices[t + 2] ?? 0] ?? 0;
    if (a === b || b === c || a === c) continue;
    xml.bytes(TRIANGLE_1);
    xml.int(a);
    xml.bytes(V2);
    xml.int(b);
    xml.bytes(V3);
    xml.int(c);
    xml.bytes(END);
  }
  xml.text("</triangles></mesh></object>");
}

/**
 * A 3MF package in millimetres: one object (and one build item) per part. The model's XML is
 * written as bytes straight into fflate's streaming zip, never as one string. Deflated at level 1
 * by default: at 2M triangles it takes under half level 6's time for a file about a sixth larger.
 */
export function threeMf(parts: PrintPart[], level: DeflateLevel = 1): Uint8Array {
  const chunks: Uint8Array[] = [];
  let failed: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failed = error;
    else chunks.push(chunk);
  });
  const small = (name: string, text: string) => {
    const entry = new ZipEntry(name, level);
    zip.add(entry);
    entry.push(strToU8(text), true);
  };
  small("[Content_Types].xml", CONTENT_TYPES);
  small("_rels/.rels", RELS);
  const entry = new ZipEntry("3D/3dmodel.model", level);
  zip.add(entry);
  const xml = new XmlBytes(entry);
  xml.text(
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
      `<model unit="millimeter" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">` +
      `<metadata name="Application">x3d studio</metadata><resources>`,
  );
  parts.forEach((part, i) => writeObject(xml, part, i + 1));
  xml.text(`</resources><build>${parts.map((_, i) => `<item objectid="${i + 1}"/>`).join("")}</build></model>`);
  xml.flush(true);
  zip.end();
  if (failed) throw failed;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
