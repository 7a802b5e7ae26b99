/**
 * Cover images: a small software rasteriser (perspective camera at a three-quarter view
 * fitted to the bounding box, z-buffer with deferred shading, Lambert + ambient, vertex
 * colour / texture / material colour, else clay grey, 2x2 supersampling), encoded to PNG
 * with sharp; and a PNG preview of a depth map.
 */
import sharp from "sharp";
import type { MeshPart, RasterImage, Scene } from "@/lib/engine/mesh/types";
import { sceneBounds, vertexNormals } from "./mesh-ops";

export interface CoverOptions {
  /** Output edge length in pixels (default 512). */
  size?: number;
  /** Camera azimuth from +Z towards +X, degrees (default 35). */
  azimuthDeg?: number;
  /** Camera elevation, degrees (default 22). */
  elevationDeg?: number;
}

const CLAY: [number, number, number] = [0.5, 0.47, 0.43];
const WHITE: [number, number, number, number] = [1, 1, 1, 1];
const SRGB_TO_LINEAR = new Float32Array(256).map((_, i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
});
const LINEAR_TO_SRGB = new Uint8Array(4096).map((_, i) => {
  const c = i / 4095;
  const s = c <= 0.0031308 ? c * 12.92 : 1.055 * Math.pow(c, 1 / 2.4) - 0.055;
  return Math.round(Math.min(1, Math.max(0, s)) * 255);
});
const toSrgb = (v: number) => LINEAR_TO_SRGB[Math.min(4095, Math.max(0, Math.round(v * 4095)))]!;

const cross = (a: number[], b: number[]) => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
const norm = (a: number[]) => {
  const l = Math.hypot(a[0]!, a[1]!, a[2]!) || 1;
  return [a[0]! / l, a[1]! / l, a[2]! / l];
};

/** Renders the scene to RGBA8 (opaque, soft grey background). */
export function renderScene(scene: Scene, opts: CoverOptions = {}): RasterImage {
  const size = opts.size ?? 512;
  const S = size * 2; // supersampled
  const az = ((opts.azimuthDeg ?? 35) * Math.PI) / 180,
    el = ((opts.elevationDeg ?? 22) * Math.PI) / 180;
  const b = sceneBounds(scene);
  const empty = !Number.isFinite(b.min[0]);
  const centre = empty ? [0, 0, 0] : [0, 1, 2].map((c) => (b.min[c]! + b.max[c]!) / 2);
  const radius = empty ? 1 : Math.max(1e-6, Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) / 2);
  const fov = (30 * Math.PI) / 180;
  const dir = [Math.sin(az) * Math.cos(el), Math.sin(el), Math.cos(az) * Math.cos(el)];
  const dist = (radius / Math.sin(fov / 2)) * 1.02;
  const eye = centre.map((c, i) => c + dir[i]! * dist);
  const fwd = norm(dir.map((d) => -d));
  const right = norm(cross(fwd, [0, 1, 0]));
  const up = cross(right, fwd);
  // Fit the projected vertices into 88% of the frame.
  let minX = Infinity,
    maxX = -Infinity,
    minY = Infinity,
    maxY = -Infinity;
  for (const part of scene.parts) {
    const P = part.positions;
    for (let v = 0; v < P.length; v += 3) {
      const rx = P[v]! - eye[0]!,
        ry = P[v + 1]! - eye[1]!,
        rz = P[v + 2]! - eye[2]!;
      const z = Math.max(1e-6, rx * fwd[0]! + ry * fwd[1]! + rz * fwd[2]!);
      const px = (rx * right[0]! + ry * right[1]! + rz * right[2]!) / z,
        py = (rx * up[0]! + ry * up[1]! + rz * up[2]!) / z;
      if (px < minX) minX = px;
      if (px > maxX) maxX = px;
      if (py < minY) minY = py;
      if (py > maxY) maxY = py;
    }
  }
  const focal = empty ? S / 2 / Math.tan(fov / 2) : (0.88 * S) / Math.max(maxX - minX, maxY - minY, 1e-9);
  const offX = empty ? 0 : ((minX + maxX) / 2) * focal,
    offY = empty ? 0 : ((minY + maxY) / 2) * focal;
  const light = norm([
    -0.45 * right[0]! + 0.75 * up[0]! - 0.5 * fwd[0]!,
    -0.45 * right[1]! + 0.75 * up[1]! - 0.5 * fwd[1]!,
    -0.45 * right[2]! + 0.75 * up[2]! - 0.5 * fwd[2]!,
  ]);

  const zbuf = new Float32Array(S * S); // 1/z, 0 = empty
  const triAt = new Int32Array(S * S).fill(-1);
  const partAt = new Int16Array(S * S).fill(-1);
  const bary = new Float32Array(S * S * 2);
  const prepared = scene.parts.map((p) => ({ part: p, normals: p.normals ?? vertexNormals(p.positions, p.indices) }));

  prepared.forEach(({ part }, pi) => {
    const P = part.positions,
      I = part.indices,
      nv = P.length / 3;
    const sx = new Float32Array(nv),
      sy = new Float32Array(nv),
      iz = new Float32Array(nv);
    for (let v = 0; v < nv; v++) {
      const rx = P[v * 3]! - eye[0]!,
        ry = P[v * 3 + 1]! - eye[1]!,
        rz = P[v * 3 + 2]! - eye[2]!;
      const z = Math.max(1e-6, rx * fwd[0]! + ry * fwd[1]! + rz * fwd[2]!);
      sx[v] = S / 2 + ((rx * right[0]! + ry * right[1]! + rz * right[2]!) / z) * focal - offX;
      sy[v] = S / 2 - ((rx * up[0]! + ry * up[1]! + rz * up[2]!) / z) * focal + offY;
      iz[v] = 1 / z;
    }
    for (let t = 0; t < I.length; t += 3) {
      const a = I[t]!,
        c1 = I[t + 1]!,
        c2 = I[t + 2]!;
      const ax = sx[a]!,
        ay = sy[a]!,
        bx = sx[c1]!,
        by = sy[c1]!,
        cx = sx[c2]!,
        cy = sy[c2]!;
      const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
      if (Math.abs(area) < 1e-12) continue;
      const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx))),
        x1 = Math.min(S - 1, Math.ceil(Math.max(ax, bx, cx)));
      const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy))),
        y1 = Math.min(S - 1, Math.ceil(Math.max(ay, by, cy)));
      const inv = 1 / area;
      const za = iz[a]!,
        zb = iz[c1]!,
        zc = iz[c2]!;
      for (let y = y0; y <= y1; y++) {
        const py = y + 0.5;
        for (let x = x0; x <= x1; x++) {
          const px = x + 0.5;
          const w0 = ((bx - px) * (cy - py) - (by - py) * (cx - px)) * inv;
          const w1 = ((cx - px) * (ay - py) - (cy - py) * (ax - px)) * inv;
          const w2 = 1 - w0 - w1;
          if (w0 < 0 || w1 < 0 || w2 < 0) continue;
          const z = w0 * za + w1 * zb + w2 * zc;
          const o = y * S + x;
          if (z <= zbuf[o]!) continue;
          zbuf[o] = z;
          triAt[o] = t;
          partAt[o] = pi;
          bary[o * 2] = (w1 * zb) / z;
          bary[o * 2 + 1] = (w2 * zc) / z;
        }
      }
    }
  });

  const hi = new Float32Array(S * S * 3);
  const col = [0, 0, 0];
  for (let o = 0; o < S * S; o++) {
    const pi = partAt[o]!;
    if (pi < 0) {
      const g = 0.78 - 0.12 * (Math.floor(o / S) / S);
      hi[o * 3] = g;
      hi[o * 3 + 1] = g;
      hi[o * 3 + 2] = g * 1.03;
      continue;
    }
    const { part, normals } = prepared[pi]!;
    const t = triAt[o]!,
      b1 = bary[o * 2]!,
      b2 = bary[o * 2 + 1]!,
      b0 = 1 - b1 - b2;
    const a = part.indices[t]!,
      c1 = part.indices[t + 1]!,
      c2 = part.indices[t + 2]!;
    let nx = b0 * normals[a * 3]! + b1 * normals[c1 * 3]! + b2 * normals[c2 * 3]!;
    let ny = b0 * normals[a * 3 + 1]! + b1 * normals[c1 * 3 + 1]! + b2 * normals[c2 * 3 + 1]!;
    let nz = b0 * normals[a * 3 + 2]! + b1 * normals[c1 * 3 + 2]! + b2 * normals[c2 * 3 + 2]!;
    let nl = Math.hypot(nx, ny, nz) || 1;
    if (nx * fwd[0]! + ny * fwd[1]! + nz * fwd[2]! > 0) nl = -nl; // two-sided
    nx /= nl;
    ny /= nl;
    nz /= nl;
    baseColour(part, a, c1, c2, b0, b1, b2, col);
    const lambert = Math.max(0, nx * light[0]! + ny * light[1]! + nz * light[2]!);
    const facing = Math.max(0, -(nx * fwd[0]! + ny * fwd[1]! + nz * fwd[2]!));
    const shade = 0.28 + 0.8 * lambert + 0.12 * facing;
    hi[o * 3] = col[0]! * shade;
    hi[o * 3 + 1] = col[1]! * shade;
    hi[o * 3 + 2] = col[2]! * shade;
  }
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const o = (y * 2 * S + x * 2) * 3;
      for (let c = 0; c < 3; c++) {
        const v = (hi[o + c]! + hi[o + 3 + c]! + hi[o + S * 3 + c]! + hi[o + S * 3 + 3 + c]!) / 4;
        data[(y * size + x) * 4 + c] = toSrgb(v);
      }
      data[(y * size + x) * 4 + 3] = 255;
    }
  }
  return { width: size, height: size, data };
}

/** Linear base colour at a point of a triangle, into `out`. */
function baseColour(part: MeshPart, a: number, b: number, c: number, w0: number, w1: number, w2: number, out: number[]): void {
  const m = part.material;
  const f = m?.baseColorFactor ?? WHITE;
  if (part.colors) {
    for (let k = 0; k < 3; k++)
      out[k] = (w0 * part.colors[a * 3 + k]! + w1 * part.colors[b * 3 + k]! + w2 * part.colors[c * 3 + k]!) * f[k]!;
    return;
  }
  const tex = m?.baseColorTexture;
  if (tex && part.uvs) {
    const u = w0 * part.uvs[a * 2]! + w1 * part.uvs[b * 2]! + w2 * part.uvs[c * 2]!;
    const v = w0 * part.uvs[a * 2 + 1]! + w1 * part.uvs[b * 2 + 1]! + w2 * part.uvs[c * 2 + 1]!;
    const fx = u - Math.floor(u),
      fy = v - Math.floor(v);
    const px = Math.min(tex.width - 1, Math.floor(fx * tex.width)),
      py = Math.min(tex.height - 1, Math.floor(fy * tex.height));
    const o = (py * tex.width + px) * 4;
    for (let k = 0; k < 3; k++) out[k] = SRGB_TO_LINEAR[tex.data[o + k]!]! * f[k]!;
    return;
  }
  if (m) {
    out[0] = f[0];
    out[1] = f[1];
    out[2] = f[2];
    return;
  }
  out[0] = CLAY[0];
  out[1] = CLAY[1];
  out[2] = CLAY[2];
}

/** The scene's cover as PNG bytes. */
export async function renderCover(scene: Scene, opts: CoverOptions = {}): Promise<Uint8Array> {
  const img = renderScene(scene, opts);
  const png = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 4 } })
    .png()
    .toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/** An 8-bit grey PNG preview (longest side <= maxSide) of a 0..1 depth map. */
export async function depthCover(width: number, height: number, gray: Float32Array, maxSide = 512): Promise<Uint8Array> {
  const px = new Uint8Array(width * height);
  for (let i = 0; i < px.length; i++) px[i] = Math.round(Math.min(1, Math.max(0, gray[i]!)) * 255);
  const scale = Math.min(1, maxSide / Math.max(width, height));
  const png = await sharp(px, { raw: { width, height, channels: 1 } })
    .resize(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)), { fit: "fill" })
    .png()
    .toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
