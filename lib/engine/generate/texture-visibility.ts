/**
 * Occlusion for the chart choice of texture.ts: per photographed view, a depth buffer of
 * the mesh seen from that orthographic camera (frames of visual-hull.ts, fitted to the
 * mesh box); a triangle facing the camera but lying behind the nearest surface there is
 * not what that image shows, so its score for the view is lowered.
 */

export interface MeshBox {
  minX: number;
  minY: number;
  minZ: number;
  maxX: number;
  maxY: number;
  maxZ: number;
}

/** Depth buffer cells along the longer side of a view. */
const DEPTH_RES = 512;

/**
 * Lowers score[t * 4 + k] by `penalty` for every triangle t that faces view k (present[k];
 * 0 front, 1 back, 2 left, 3 right) but is hidden behind another surface in it.
 * `faceNormals` holds the unit normal of every triangle. Returns the number of
 * (triangle, view) pairs penalised.
 */
export function penaliseOccluded(
  positions: Float32Array,
  indices: Uint32Array,
  faceNormals: Float32Array,
  present: readonly boolean[],
  box: MeshBox,
  score: Float32Array,
  penalty: number,
): number {
  const nt = indices.length / 3,
    nv = positions.length / 3;
  let hidden = 0;
  const px = new Float32Array(nv),
    py = new Float32Array(nv),
    pd = new Float32Array(nv);
  for (let k = 0; k < 4; k++) {
    if (!present[k]) continue;
    // Horizontal image axis a = sign * (x or z), depth towards the camera dd = dsign * (z or x).
    const axis = k <= 1 ? 0 : 2,
      sign = k === 0 || k === 2 ? 1 : -1;
    const daxis = k <= 1 ? 2 : 0,
      dsign = k === 0 || k === 3 ? 1 : -1;
    const lo = axis === 0 ? box.minX : box.minZ,
      hi = axis === 0 ? box.maxX : box.maxZ;
    const amin = sign > 0 ? lo : -hi;
    const spanA = Math.max(1e-9, hi - lo),
      spanY = Math.max(1e-9, box.maxY - box.minY);
    const cs = Math.max(spanA, spanY) / DEPTH_RES;
    const gw = Math.ceil(spanA / cs) + 1,
      gh = Math.ceil(spanY / cs) + 1;
    const zbuf = new Float32Array(gw * gh).fill(-Infinity);
    const inv = 1 / cs,
      maxY = box.maxY;
    // Vertices in depth-buffer cells (pixel centres at i + 0.5) and depth.
    for (let v = 0; v < nv; v++) {
      px[v] = (sign * positions[v * 3 + axis]! - amin) * inv;
      py[v] = (maxY - positions[v * 3 + 1]!) * inv;
      pd[v] = dsign * positions[v * 3 + daxis]!;
    }
    // Rasterise the camera-facing triangles (nearest depth wins).
    for (let t = 0; t < nt; t++) {
      if (dsign * faceNormals[t * 3 + daxis]! <= 0) continue;
      const i0 = indices[t * 3]!,
        i1 = indices[t * 3 + 1]!,
        i2 = indices[t * 3 + 2]!;
      const x0 = px[i0]!,
        y0 = py[i0]!,
        x1 = px[i1]!,
        y1 = py[i1]!,
        x2 = px[i2]!,
        y2 = py[i2]!;
      const d0 = pd[i0]!,
        d1 = pd[i1]!,
        d2 = pd[i2]!;
      const bx0 = Math.max(0, Math.ceil(Math.min(x0, x1, x2) - 0.5)),
        bx1 = Math.min(gw - 1, Math.floor(Math.max(x0, x1, x2) - 0.5));
      const by0 = Math.max(0, Math.ceil(Math.min(y0, y1, y2) - 0.5)),
        by1 = Math.min(gh - 1, Math.floor(Math.max(y0, y1, y2) - 0.5));
      const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
      if (bx0 > bx1 || by0 > by1 || Math.abs(area) < 1e-12) {
        // Smaller than a cell: splat the centroid.
        const cx = Math.min(gw - 1, Math.max(0, ((x0 + x1 + x2) / 3) | 0)),
          cy = Math.min(gh - 1, Math.max(0, ((y0 + y1 + y2) / 3) | 0));
        const d = (d0 + d1 + d2) / 3,
          q = cy * gw + cx;
        if (d > zbuf[q]!) zbuf[q] = d;
        continue;
      }
      const ia = 1 / area;
      for (let y = by0; y <= by1; y++) {
        const cy = y + 0.5;
        for (let x = bx0; x <= bx1; x++) {
          const cx = x + 0.5;
          const w0 = ((x1 - cx) * (y2 - cy) - (x2 - cx) * (y1 - cy)) * ia;
          const w1 = ((x2 - cx) * (y0 - cy) - (x0 - cx) * (y2 - cy)) * ia;
          const w2 = 1 - w0 - w1;
          if (w0 < -1e-6 || w1 < -1e-6 || w2 < -1e-6) continue;
          const d = w0 * d0 + w1 * d1 + w2 * d2,
            q = y * gw + x;
          if (d > zbuf[q]!) zbuf[q] = d;
        }
      }
    }
    // A facing triangle whose centroid lies clearly behind the buffer is hidden.
    for (let t = 0; t < nt; t++) {
      const f = dsign * faceNormals[t * 3 + daxis]!;
      if (f <= 0) continue;
      const i0 = indices[t * 3]!,
        i1 = indices[t * 3 + 1]!,
        i2 = indices[t * 3 + 2]!;
      const cx = ((px[i0]! + px[i1]! + px[i2]!) / 3) | 0,
        cy = ((py[i0]! + py[i1]! + py[i2]!) / 3) | 0;
      if (cx < 0 || cy < 0 || cx >= gw || cy >= gh) continue;
      const z = zbuf[cy * gw + cx]!,
        d = (pd[i0]! + pd[i1]! + pd[i2]!) / 3;
      if (d >= z - 1.5 * cs) continue;
      const tol = cs * (1.5 + (2 * Math.sqrt(Math.max(0, 1 - f * f))) / Math.max(f, 0.15));
      if (d < z - tol) {
        score[t * 4 + k] = score[t * 4 + k]! - penalty;
        hidden++;
      }
    }
  }
  return hidden;
}
