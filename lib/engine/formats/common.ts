/** Shared helpers for the format writers and readers (pure, no DOM). */
import * as zlib from "node:zlib";
import sharp from "sharp";
import type { MeshPart, RasterImage, Scene } from "@/lib/engine/mesh/types";

export const textEncoder = new TextEncoder();

/** Shortest decimal for a coordinate, at most 6 decimals, never exponent notation. */
export function fmt(x: number): string {
  const r = Math.round(x * 1e6) / 1e6;
  return Object.is(r, -0) || !Number.isFinite(r) ? "0" : String(r);
}

export function linearToSrgb(c: number): number {
  const x = Math.min(1, Math.max(0, c));
  return x <= 0.0031308 ? x * 12.92 : 1.055 * Math.pow(x, 1 / 2.4) - 0.055;
}

export function srgbToLinear(c: number): number {
  const x = Math.min(1, Math.max(0, c));
  return x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
}

/** Unit normal of triangle (a, b, c) given flat xyz positions; zero vector when degenerate. */
export function faceNormal(p: Float32Array, a: number, b: number, c: number): [number, number, number] {
  const ax = p[a * 3]!,
    ay = p[a * 3 + 1]!,
    az = p[a * 3 + 2]!;
  const ux = p[b * 3]! - ax,
    uy = p[b * 3 + 1]! - ay,
    uz = p[b * 3 + 2]! - az;
  const vx = p[c * 3]! - ax,
    vy = p[c * 3 + 1]! - ay,
    vz = p[c * 3 + 2]! - az;
  const nx = uy * vz - uz * vy,
    ny = uz * vx - ux * vz,
    nz = ux * vy - uy * vx;
  const len = Math.hypot(nx, ny, nz);
  return len > 0 ? [nx / len, ny / len, nz / len] : [0, 0, 0];
}

/** The part's normals, or area-weighted smooth vertex normals when it has none. */
export function partNormals(part: MeshPart): Float32Array {
  const n = part.positions.length / 3;
  if (part.normals && part.normals.length === n * 3) return part.normals;
  const p = part.positions;
  const out = new Float32Array(n * 3);
  const idx = part.indices;
  for (let t = 0; t + 2 < idx.length; t += 3) {
    const a = idx[t]!,
      b = idx[t + 1]!,
      c = idx[t + 2]!;
    const ux = p[b * 3]! - p[a * 3]!,
      uy = p[b * 3 + 1]! - p[a * 3 + 1]!,
      uz = p[b * 3 + 2]! - p[a * 3 + 2]!;
    const vx = p[c * 3]! - p[a * 3]!,
      vy = p[c * 3 + 1]! - p[a * 3 + 1]!,
      vz = p[c * 3 + 2]! - p[a * 3 + 2]!;
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    for (const v of [a, b, c]) {
      out[v * 3] = out[v * 3]! + nx;
      out[v * 3 + 1] = out[v * 3 + 1]! + ny;
      out[v * 3 + 2] = out[v * 3 + 2]! + nz;
    }
  }
  for (let v = 0; v < n; v++) {
    const x = out[v * 3]!,
      y = out[v * 3 + 1]!,
      z = out[v * 3 + 2]!;
    const len = Math.hypot(x, y, z);
    if (len > 0) {
      out[v * 3] = x / len;
      out[v * 3 + 1] = y / len;
      out[v * 3 + 2] = z / len;
    } else {
      out[v * 3 + 1] = 1;
    }
  }
  return out;
}

/** True when the part's optional per-vertex array has the expected length. */
export function hasAttr(arr: Float32Array | undefined, part: MeshPart, size: number): arr is Float32Array {
  return arr !== undefined && arr.length === (part.positions.length / 3) * size;
}

/** Throws a descriptive error when a scene is structurally invalid (writers call this first). */
export function assertValidScene(scene: Scene): void {
  scene.parts.forEach((part, i) => {
    const n = part.positions.length / 3;
    if (!Number.isInteger(n)) throw new Error(`part ${i}: positions length is not a multiple of 3`);
    if (part.indices.length % 3 !== 0) throw new Error(`part ${i}: indices length is not a multiple of 3`);
    for (const v of part.indices) {
      if (v >= n) throw new Error(`part ${i}: index ${v} out of range (${n} vertices)`);
    }
  });
}

/** Encodes an RGBA8 image as PNG. */
export async function encodePng(img: RasterImage): Promise<Uint8Array> {
  if (img.data.length !== img.width * img.height * 4) throw new Error("RasterImage data length mismatch");
  const buf = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 4 } })
    .png()
    .toBuffer();
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** Decodes any image sharp understands (PNG, JPEG, WebP, ...) to RGBA8. */
export async function decodeImage(bytes: Uint8Array): Promise<RasterImage> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/**
 * Caches one encoding per image object (textures are often shared between parts). Encoding
 * runs on sharp's threads, so writers start it before building geometry and await it after.
 */
export class PngCache {
  private readonly cache = new Map<RasterImage, Promise<Uint8Array>>();
  get(img: RasterImage): Promise<Uint8Array> {
    let p = this.cache.get(img);
    if (!p) {
      p = encodePng(img);
      p.catch(() => {}); // started early by writers; whoever awaits it still sees the error
      this.cache.set(img, p);
    }
    return p;
  }
}

/** A name made of [A-Za-z0-9_] that starts with a letter or underscore; `fallback` when empty. */
export function safeName(name: string, fallback: string): string {
  const s = name.replace(/[^A-Za-z0-9_]/g, "_");
  if (s === "" || /^_+$/.test(s)) return fallback;
  return /^[0-9]/.test(s) ? `_${s}` : s;
}

/** Gives every name a unique suffix when it is already taken. */
export function uniqueNamer(): (name: string) => string {
  const used = new Set<string>();
  return (name) => {
    let out = name;
    for (let i = 1; used.has(out); i++) out = `${name}_${i}`;
    used.add(out);
    return out;
  };
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** CRC-32 (zlib's when Node has it: v20.15+), chainable through `seed`. */
export function crc32(data: Uint8Array, start = 0, end = data.length, seed = 0): number {
  if (nativeCrc32) return nativeCrc32(start === 0 && end === data.length ? data : data.subarray(start, end), seed) >>> 0;
  let c = ~seed >>> 0;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

export function concatBytes(chunks: Uint8Array[]): Uint8Array {
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/**
 * Welds vertices whose positions are equal once rounded to `fmt`'s 6 decimals (what the text
 * formats write), so meshes split for uvs/normals become closed again. Returns, per vertex,
 * the index of its welded vertex, and per welded vertex the first original vertex.
 */
export function weldPositions(positions: Float32Array): { remap: Uint32Array; first: Uint32Array } {
  const n = positions.length / 3;
  const q = new Float64Array(positions.length);
  for (let i = 0; i < q.length; i++) {
    const k = Math.round(positions[i]! * 1e6);
    q[i] = k === 0 || !Number.isFinite(k) ? 0 : k; // folds -0 and non-finite values
  }
  let size = 1;
  while (size < n * 2) size <<= 1;
  const table = new Int32Array(size).fill(-1);
  const remap = new Uint32Array(n);
  const first = new Uint32Array(n);
  let count = 0;
  for (let v = 0; v < n; v++) {
    const x = q[v * 3]!,
      y = q[v * 3 + 1]!,
      z = q[v * 3 + 2]!;
    let h = (Math.imul(x | 0, 0x9e3779b1) ^ Math.imul(y | 0, 0x85ebca77) ^ Math.imul(z | 0, 0xc2b2ae3d)) & (size - 1);
    for (;;) {
      const slot = table[h]!;
      if (slot < 0) {
        table[h] = count;
        first[count] = v;
        remap[v] = count++;
        break;
      }
      const u = first[slot]!;
      if (q[u * 3] === x && q[u * 3 + 1] === y && q[u * 3 + 2] === z) {
        remap[v] = slot;
        break;
      }
      h = (h + 1) & (size - 1);
    }
  }
  return { remap, first: first.slice(0, count) };
}
