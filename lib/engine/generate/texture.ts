/**
 * Multi-view texturing of a closed mesh (request_types 2 and 3).
 *
 * Every view is an orthographic camera looking at the origin, +Y up (the frames of
 * visual-hull.ts): front from +Z (image x -> +X), back from -Z (image x -> -X), left
 * from -X (image x -> +Z), right from +X (image x -> -Z). A view is placed on the mesh by
 * bounding boxes: the mesh's extent along the view's horizontal axis and along Y maps
 * onto the box of that view's mask (max Y = the mask box's top row), which works for
 * generated meshes and for arbitrary meshes alike.
 *
 * 1. Charts: each triangle takes the view that faces it best (largest dot of its
 *    one-ring-smoothed normal with the direction towards the camera); a direction
 *    without a view is served by the opposite view seen through (one image textures the
 *    back with the front, as a projection does). With several views, a view in which the
 *    triangle is hidden behind another surface (depth buffer, texture-visibility.ts)
 *    scores 1.5 lower, so views fill in what they see. Two majority-vote passes over the
 *    vertex neighbourhoods (restricted to views nearly as good) remove speckles.
 * 2. Seams: a vertex whose triangles use several charts is duplicated once per extra
 *    chart (same position and normal), appended after the original vertices; triangle
 *    count and order are unchanged.
 * 3. Atlas: one tile per used view (1: the whole atlas, 2: side by side, 3-4: 2x2), each
 *    the view's crop around its mask box, de-shaded (texture-image.ts), its background
 *    filled by push-pull from the subject colours (no halo at outlines, seams or mip
 *    levels) and resampled to the tile. pbr adds metallic-roughness and normal maps in
 *    the same layout.
 */
import type { Material, MeshPart, RasterImage } from "@/lib/engine/mesh/types";
import type { DecodedImage } from "./image-input";
import type { View } from "./job";
import { maskBounds } from "./mask-ops";
import { penaliseOccluded } from "./texture-visibility";
import { deshadeLinear, deshadeRadius, erode, linearRgbToRgba, pushPullFill, resampleCrop } from "./texture-image";
import { BASE_ROUGHNESS, pbrMaps } from "./texture-pbr";

export interface TextureView {
  view: View;
  image: DecodedImage;
  /** 1 = subject, width * height. */
  mask: Uint8Array;
}

export interface TextureOptions {
  pbr: boolean;
  /** De-shading strength 0..1 (0 = image colours as they are). */
  shading: number;
  /** Longest side of the texture atlas in pixels (e.g. 1024 or 2048). */
  atlasSize: number;
  /**
   * Box the views are fitted to (default: this mesh's own bounds). Pass the whole
   * scene's box when texturing one part of several.
   */
  bounds?: { min: [number, number, number]; max: [number, number, number] };
}

/** View order = chart ids: front, back, left, right. */
export const VIEW_ORDER: readonly View[] = ["front", "back", "left", "right"];
/** Opposite chart id. */
const OPPOSITE = [1, 0, 3, 2];
/** A view may win the speckle vote when its facing score is within this of the best. */
const VOTE_SLACK = 0.3;
const VOTE_PASSES = 2;
/** Score lowered for a view in which the triangle is hidden behind another surface. */
const OCCLUSION_PENALTY = 1.5;
/** Roughness factor of a textured material without pbr maps (as before). */
const PLAIN_ROUGHNESS = 0.65;

/** Facing score of chart direction d (0 +Z, 1 -Z, 2 -X, 3 +X) for normal (x, _, z). */
const facing = (d: number, nx: number, nz: number) => (d === 0 ? nz : d === 1 ? -nz : d === 2 ? -nx : nx);

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Per used view: where its image comes from and where it goes in the atlas. */
interface Chart {
  id: number;
  src: TextureView;
  /** Crop of the source image (may extend past it), pixels. */
  crop: Rect;
  /** Mask box in source pixels: x0 left edge, bw width, y0 top edge, bh height. */
  x0: number;
  y0: number;
  bw: number;
  bh: number;
  tile: Rect;
}

/**
 * Textures a closed mesh from the views. Triangle count and triangle order are kept;
 * vertices may be duplicated along chart seams (duplicates appended after the original
 * vertices, which keep their indices). Returns positions, indices, normals, uvs and the
 * material. Synchronous.
 */
export function textureMesh(
  positions: Float32Array,
  indices: Uint32Array,
  views: TextureView[],
  opts: TextureOptions,
): MeshPart & Required<Pick<MeshPart, "normals" | "uvs">> {
  const present: (TextureView | undefined)[] = VIEW_ORDER.map((v) => views.find((x) => x.view === v));
  if (!present.some(Boolean)) throw new Error("textureMesh needs at least one view");
  const nv = positions.length / 3,
    nt = indices.length / 3;

  let minX = Infinity,
    minY = Infinity,
    minZ = Infinity,
    maxX = -Infinity,
    maxY = -Infinity,
    maxZ = -Infinity;
  if (opts.bounds) {
    [minX, minY, minZ] = opts.bounds.min;
    [maxX, maxY, maxZ] = opts.bounds.max;
  } else
    for (let i = 0; i < positions.length; i += 3) {
      const x = positions[i]!,
        y = positions[i + 1]!,
        z = positions[i + 2]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (z < minZ) minZ = z;
      if (z > maxZ) maxZ = z;
    }

  // Direction -> chart (view) id serving it, -1 when none.
  const dirChart = new Int8Array(4);
  for (let d = 0; d < 4; d++) dirChart[d] = present[d] ? d : present[OPPOSITE[d]!] ? OPPOSITE[d]! : -1;

  // Area-weighted vertex normals (also the smoothing of the chart choice).
  const vn = new Float32Array(nv * 3);
  const multi = present.filter(Boolean).length > 1;
  const fn = multi ? new Float32Array(nt * 3) : undefined; // unit face normals (occlusion)
  for (let t = 0; t < nt; t++) {
    const a = indices[t * 3]! * 3,
      b = indices[t * 3 + 1]! * 3,
      c = indices[t * 3 + 2]! * 3;
    const ax = positions[a]!,
      ay = positions[a + 1]!,
      az = positions[a + 2]!;
    const ux = positions[b]! - ax,
      uy = positions[b + 1]! - ay,
      uz = positions[b + 2]! - az;
    const vx = positions[c]! - ax,
      vy = positions[c + 1]! - ay,
      vz = positions[c + 2]! - az;
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    vn[a] = vn[a]! + nx;
    vn[a + 1] = vn[a + 1]! + ny;
    vn[a + 2] = vn[a + 2]! + nz;
    vn[b] = vn[b]! + nx;
    vn[b + 1] = vn[b + 1]! + ny;
    vn[b + 2] = vn[b + 2]! + nz;
    vn[c] = vn[c]! + nx;
    vn[c + 1] = vn[c + 1]! + ny;
    vn[c + 2] = vn[c + 2]! + nz;
    if (fn) {
      const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
      if (l > 0) {
        fn[t * 3] = nx / l;
        fn[t * 3 + 1] = ny / l;
        fn[t * 3 + 2] = nz / l;
      }
    }
  }
  for (let i = 0; i < vn.length; i += 3) {
    const l = Math.sqrt(vn[i]! * vn[i]! + vn[i + 1]! * vn[i + 1]! + vn[i + 2]! * vn[i + 2]!);
    if (l > 0) {
      vn[i] = vn[i]! / l;
      vn[i + 1] = vn[i + 1]! / l;
      vn[i + 2] = vn[i + 2]! / l;
    } else vn[i + 1] = 1;
  }

  // 1. Chart per triangle from the one-ring-smoothed normal (sum of its vertex normals).
  const label = new Uint8Array(nt);
  const score = new Float32Array(nt * 4); // per chart id, -Infinity when not available
  for (let t = 0; t < nt; t++) {
    const a = indices[t * 3]! * 3,
      b = indices[t * 3 + 1]! * 3,
      c = indices[t * 3 + 2]! * 3;
    const nx = vn[a]! + vn[b]! + vn[c]!,
      nz = vn[a + 2]! + vn[b + 2]! + vn[c + 2]!;
    const ny = vn[a + 1]! + vn[b + 1]! + vn[c + 1]!;
    const inv = 1 / (Math.sqrt(nx * nx + ny * ny + nz * nz) || 1);
    const o = t * 4;
    score[o] = score[o + 1] = score[o + 2] = score[o + 3] = -Infinity;
    for (let d = 0; d < 4; d++) {
      const k = dirChart[d]!;
      if (k < 0) continue;
      const s = facing(d, nx, nz) * inv;
      if (s > score[o + k]!) score[o + k] = s;
    }
  }
  if (fn && nt > 0) {
    penaliseOccluded(positions, indices, fn, present.map(Boolean), { minX, minY, minZ, maxX, maxY, maxZ }, score, OCCLUSION_PENALTY);
  }
  for (let t = 0, o = 0; t < nt; t++, o += 4) {
    let best = 0;
    for (let k = 1; k < 4; k++) if (score[o + k]! > score[o + best]!) best = k;
    label[t] = best;
  }
  if (multi) {
    const counts = new Uint32Array(nv * 4);
    const next = new Uint8Array(nt);
    for (let pass = 0; pass < VOTE_PASSES; pass++) {
      counts.fill(0);
      for (let t = 0, i = 0; t < nt; t++, i += 3) {
        const l = label[t]!;
        counts[indices[i]! * 4 + l]!++;
        counts[indices[i + 1]! * 4 + l]!++;
        counts[indices[i + 2]! * 4 + l]!++;
      }
      for (let t = 0; t < nt; t++) {
        const a = indices[t * 3]! * 4,
          b = indices[t * 3 + 1]! * 4,
          c = indices[t * 3 + 2]! * 4,
          o = t * 4;
        const bestS = Math.max(score[o]!, score[o + 1]!, score[o + 2]!, score[o + 3]!);
        let pick = label[t]!,
          pickN = counts[a + pick]! + counts[b + pick]! + counts[c + pick]!;
        for (let k = 0; k < 4; k++) {
          if (k === pick || score[o + k]! < bestS - VOTE_SLACK) continue;
          const cnt = counts[a + k]! + counts[b + k]! + counts[c + k]!;
          if (cnt > pickN) {
            pick = k;
            pickN = cnt;
          }
        }
        next[t] = pick;
      }
      label.set(next);
    }
  }

  // 2. Seams: one vertex per (vertex, chart) pair in use; originals keep their index.
  const slot = new Int32Array(nv * 4).fill(-1);
  const primary = new Int8Array(nv).fill(-1);
  const outIndices = new Uint32Array(nt * 3);
  let extraSrc = new Uint32Array(Math.max(16, nv >> 2)),
    extraChart = new Uint8Array(extraSrc.length);
  let extra = 0;
  for (let i = 0; i < nt * 3; i++) {
    const v = indices[i]!,
      k = label[(i / 3) | 0]!;
    let id = slot[v * 4 + k]!;
    if (id < 0) {
      if (primary[v]! < 0) {
        primary[v] = k;
        id = v;
      } else {
        if (extra === extraSrc.length) {
          const s2 = new Uint32Array(extra * 2);
          s2.set(extraSrc);
          extraSrc = s2;
          const c2 = new Uint8Array(extra * 2);
          c2.set(extraChart);
          extraChart = c2;
        }
        extraSrc[extra] = v;
        extraChart[extra] = k;
        id = nv + extra++;
      }
      slot[v * 4 + k] = id;
    }
    outIndices[i] = id;
  }
  const total = nv + extra;
  const outPos = new Float32Array(total * 3),
    outNrm = new Float32Array(total * 3);
  outPos.set(positions);
  outNrm.set(vn);
  for (let e = 0; e < extra; e++) {
    const s = extraSrc[e]! * 3,
      d = (nv + e) * 3;
    outPos[d] = positions[s]!;
    outPos[d + 1] = positions[s + 1]!;
    outPos[d + 2] = positions[s + 2]!;
    outNrm[d] = vn[s]!;
    outNrm[d + 1] = vn[s + 1]!;
    outNrm[d + 2] = vn[s + 2]!;
  }

  // 3. Charts in use, their crops and atlas tiles.
  const used = new Uint8Array(4);
  for (let t = 0; t < nt; t++) used[label[t]!] = 1;
  if (nt === 0) used[present.findIndex(Boolean)] = 1;
  const charts: (Chart | undefined)[] = [undefined, undefined, undefined, undefined];
  const usedIds = [0, 1, 2, 3].filter((k) => used[k]);
  const cols = usedIds.length === 1 ? 1 : 2,
    rows = usedIds.length <= 2 ? 1 : 2;
  const size = Math.max(8, Math.round(opts.atlasSize));
  const cellW = Math.floor(size / cols),
    cellH = Math.floor(size / rows);
  usedIds.forEach((k, i) => {
    const src = present[k]!;
    const { width: w, height: h } = src.image;
    const mb = maskBounds(src.mask, w, h) ?? { x0: 0, y0: 0, x1: w - 1, y1: h - 1 };
    const bw = mb.x1 - mb.x0 + 1,
      bh = mb.y1 - mb.y0 + 1;
    const margin = Math.max(2, Math.round(0.02 * Math.max(bw, bh)));
    charts[k] = {
      id: k,
      src,
      x0: mb.x0,
      y0: mb.y0,
      bw,
      bh,
      crop: { x: mb.x0 - margin, y: mb.y0 - margin, w: bw + 2 * margin, h: bh + 2 * margin },
      tile: { x: (i % cols) * cellW, y: Math.floor(i / cols) * cellH, w: cellW, h: cellH },
    };
  });

  // UVs: per chart, u = au * axis + bu and v = av * Y + bv (atlas-normalised).
  const map = new Float64Array(4 * 5); // axis (0 x, 2 z) with sign folded into au: au, bu, av, bv, axis
  for (const ch of charts) {
    if (!ch) continue;
    // Horizontal coordinate a = sign * (x or z), its range [amin, amax].
    const axis = ch.id <= 1 ? 0 : 2;
    const sign = ch.id === 0 || ch.id === 2 ? 1 : -1;
    const lo = axis === 0 ? minX : minZ,
      hi = axis === 0 ? maxX : maxZ;
    const amin = sign > 0 ? lo : -hi,
      span = Math.max(1e-9, hi - lo);
    const ySpan = Math.max(1e-9, maxY - minY);
    // Source pixel px = x0 + (a - amin) / span * bw; tile pixel = tile.x + (px - crop.x) * tile.w / crop.w.
    const sx = ch.tile.w / ch.crop.w,
      sy = ch.tile.h / ch.crop.h;
    const au = (((sign * ch.bw) / span) * sx) / size;
    const bu = (ch.tile.x + (ch.x0 - ch.crop.x - (amin * ch.bw) / span) * sx) / size;
    const av = ((-ch.bh / ySpan) * sy) / size;
    const bv = (ch.tile.y + (ch.y0 - ch.crop.y + (maxY * ch.bh) / ySpan) * sy) / size;
    map.set([au, bu, av, bv, axis], ch.id * 5);
  }
  const fallback = usedIds[0]!;
  const uvs = new Float32Array(total * 2);
  for (let v = 0; v < total; v++) {
    const k = v < nv ? (primary[v]! >= 0 ? primary[v]! : fallback) : extraChart[v - nv]!;
    const o = k * 5;
    const a = outPos[v * 3 + map[o + 4]!]!;
    const u = map[o]! * a + map[o + 1]!,
      w = map[o + 2]! * outPos[v * 3 + 1]! + map[o + 3]!;
    uvs[v * 2] = u < 0 ? 0 : u > 1 ? 1 : u;
    uvs[v * 2 + 1] = w < 0 ? 0 : w > 1 ? 1 : w;
  }

  const material = buildAtlas(charts, size, opts);
  return { name: "model", positions: outPos, indices: outIndices, normals: outNrm, uvs, material };
}

/** Fills an RGBA8 buffer with one colour. */
function fillRgba(data: Uint8Array, c: [number, number, number, number]): void {
  data.set(c);
  for (let len = 4; len < data.length; len *= 2) data.copyWithin(len, 0, Math.min(len, data.length - len));
}

/** Renders the used charts' tiles into the atlas textures and returns the material. */
function buildAtlas(charts: (Chart | undefined)[], size: number, opts: TextureOptions): Material {
  const base = new Uint8Array(size * size * 4);
  const mr = opts.pbr ? new Uint8Array(size * size * 4) : undefined;
  const nrm = opts.pbr ? new Uint8Array(size * size * 4) : undefined;
  // Unused cells: mid grey, plain roughness, flat normals.
  fillRgba(base, [128, 128, 128, 255]);
  if (mr) fillRgba(mr, [255, Math.round(BASE_ROUGHNESS * 255), 0, 255]);
  if (nrm) fillRgba(nrm, [128, 128, 255, 255]);
  for (const ch of charts) {
    if (!ch) continue;
    const tile = renderTile(ch, opts);
    const { x: tx, y: ty, w: tw, h: th } = ch.tile;
    for (let y = 0; y < th; y++) {
      const s = y * tw * 4,
        d = ((ty + y) * size + tx) * 4;
      base.set(tile.rgba.subarray(s, s + tw * 4), d);
      if (mr && tile.pbr) mr.set(tile.pbr.metallicRoughness.subarray(s, s + tw * 4), d);
      if (nrm && tile.pbr) nrm.set(tile.pbr.normal.subarray(s, s + tw * 4), d);
    }
  }
  const image = (data: Uint8Array): RasterImage => ({ width: size, height: size, data });
  const m: Material = {
    name: "texture",
    baseColorFactor: [1, 1, 1, 1],
    baseColorTexture: image(base),
    metallicFactor: 0,
    roughnessFactor: PLAIN_ROUGHNESS,
  };
  if (mr && nrm) {
    m.metallicRoughnessTexture = image(mr);
    m.normalTexture = image(nrm);
    m.metallicFactor = 1;
    m.roughnessFactor = 1;
  }
  return m;
}

/**
 * One chart's tile: the crop resampled to the tile (premultiplied by the trusted-colour
 * mask, so no backdrop mixes into the outline), de-shaded, background filled by
 * push-pull; pbr maps at tile size.
 */
function renderTile(ch: Chart, opts: TextureOptions): { rgba: Uint8Array; pbr?: ReturnType<typeof pbrMaps> } {
  const { image, mask } = ch.src;
  const { w: tw, h: th } = ch.tile;
  // Outline pixels often blend in the backdrop: colours come from one pixel inside.
  const colourMask = erode(mask, image.width, image.height);
  const src = resampleCrop(image, mask, colourMask, ch.crop, tw, th);
  const tn = tw * th;
  const rgb = new Float32Array(tn * 3),
    valid = new Uint8Array(tn),
    wt = new Float32Array(tn),
    tmask = new Uint8Array(tn);
  for (let p = 0; p < tn; p++) {
    const e = src[p * 5 + 3]!;
    if (e > 1e-3) {
      const inv = 1 / e;
      rgb[p * 3] = src[p * 5]! * inv;
      rgb[p * 3 + 1] = src[p * 5 + 1]! * inv;
      rgb[p * 3 + 2] = src[p * 5 + 2]! * inv;
      valid[p] = 1;
      wt[p] = 1;
    }
    tmask[p] = src[p * 5 + 4]! >= 0.5 ? 1 : 0;
  }
  if (opts.shading > 0) {
    const sx = tw / ch.crop.w,
      sy = th / ch.crop.h;
    deshadeLinear(rgb, valid, tw, th, opts.shading, deshadeRadius(ch.bw * sx, ch.bh * sy));
  }
  pushPullFill(rgb, wt, tw, th, 3);
  const rgba = linearRgbToRgba(rgb, tn);
  return opts.pbr ? { rgba, pbr: pbrMaps(rgba, tmask, tw, th) } : { rgba };
}
