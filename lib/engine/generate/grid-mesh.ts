/**
 * Closed triangle meshes over a 2-D cell mask: a top height field and a bottom height
 * field over the set cells that share the outline (a "pillow", used for silhouette
 * inflation). Vertices sit on the cell corners; the output is in the grid frame
 * (x = column, y = row, z = height) and is counter-clockwise seen from outside in that
 * (right-handed) frame. regularizeGridMask also serves depth-mesh.ts's walled reliefs.
 */

export interface GridSolidOptions {
  mask: Uint8Array;
  gw: number;
  gh: number;
  /** Height per corner vertex ((gw + 1) * (gh + 1)), top surface. */
  top: Float32Array;
  /** Height per corner vertex, bottom surface (must be below `top` off the rim; the rim is at 0). */
  bottom: Float32Array;
  /** Laplacian smoothing iterations of the outline in the plane (default 0). */
  rimSmoothing?: number;
  /** Moves outline vertex `v` (x, y given, edited in place) after smoothing. */
  projectRim?: (xy: Float32Array, offset: number) => void;
}

export interface GridSolid {
  positions: Float32Array;
  indices: Uint32Array;
}

const cellAt = (mask: Uint8Array, gw: number, gh: number, x: number, y: number): number =>
  x >= 0 && y >= 0 && x < gw && y < gh ? mask[y * gw + x]! : 0;

/** Number of set cells around every corner vertex. */
export function cornerCounts(mask: Uint8Array, gw: number, gh: number): Uint8Array {
  const vw = gw + 1;
  const counts = new Uint8Array(vw * (gh + 1));
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      if (!mask[y * gw + x]) continue;
      const v = y * vw + x;
      counts[v]!++;
      counts[v + 1]!++;
      counts[v + vw]!++;
      counts[v + vw + 1]!++;
    }
  }
  return counts;
}

function fillAround(mask: Uint8Array, gw: number, i: number, j: number): void {
  mask[(j - 1) * gw + i - 1] = 1;
  mask[(j - 1) * gw + i] = 1;
  mask[j * gw + i - 1] = 1;
  mask[j * gw + i] = 1;
}

/**
 * Makes the mask's outline a set of simple loops by only adding cells: fills diagonal
 * pinches; for a shared rim also removes isolated cells and thickens one-cell necks so
 * that no inner cell side has both ends on the outline. In place; returns the mask.
 */
export function regularizeGridMask(mask: Uint8Array, gw: number, gh: number, sharedRim: boolean): Uint8Array {
  const vw = gw + 1;
  for (let iter = 0; iter < 64; iter++) {
    let changed = false;
    for (let j = 1; j < gh; j++) {
      for (let i = 1; i < gw; i++) {
        const a = mask[(j - 1) * gw + i - 1]!,
          b = mask[(j - 1) * gw + i]!;
        const c = mask[j * gw + i - 1]!,
          d = mask[j * gw + i]!;
        if ((a && d && !b && !c) || (b && c && !a && !d)) {
          fillAround(mask, gw, i, j);
          changed = true;
        }
      }
    }
    if (sharedRim) {
      for (let y = 0; y < gh; y++) {
        for (let x = 0; x < gw; x++) {
          if (!mask[y * gw + x]) continue;
          let nb = 0;
          for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (dx || dy) nb += cellAt(mask, gw, gh, x + dx, y + dy);
          if (nb === 0) {
            mask[y * gw + x] = 0;
            changed = true;
          }
        }
      }
      const counts = cornerCounts(mask, gw, gh);
      const inner = (i: number, j: number) => counts[j * vw + i] === 4;
      for (let y = 0; y < gh; y++) {
        for (let x = 0; x < gw; x++) {
          if (!mask[y * gw + x]) continue;
          // Right side (x+1, y..y+1) and lower side (x..x+1, y+1) towards a set neighbour.
          if (cellAt(mask, gw, gh, x + 1, y) && !inner(x + 1, y) && !inner(x + 1, y + 1)) {
            const [i, j] = y > 0 ? [x + 1, y] : [x + 1, y + 1];
            if (i > 0 && j > 0 && i < gw && j < gh) {
              fillAround(mask, gw, i, j);
              changed = true;
            }
          }
          if (cellAt(mask, gw, gh, x, y + 1) && !inner(x, y + 1) && !inner(x + 1, y + 1)) {
            const [i, j] = x > 0 ? [x, y + 1] : [x + 1, y + 1];
            if (i > 0 && j > 0 && i < gw && j < gh) {
              fillAround(mask, gw, i, j);
              changed = true;
            }
          }
        }
      }
    }
    if (!changed) break;
  }
  return mask;
}

/** Builds the closed solid; see GridSolidOptions. */
export function buildGridSolid(o: GridSolidOptions): GridSolid {
  const { mask, gw, gh, top, bottom } = o;
  const vw = gw + 1;
  const nv = vw * (gh + 1);
  const counts = cornerCounts(mask, gw, gh);
  const xy = new Float32Array(nv * 2);
  for (let j = 0; j <= gh; j++)
    for (let i = 0; i <= gw; i++) {
      xy[(j * vw + i) * 2] = i;
      xy[(j * vw + i) * 2 + 1] = j;
    }

  // Outline adjacency: every cell side between a set and an unset cell, walked CCW.
  const next = new Int32Array(nv).fill(-1);
  const prev = new Int32Array(nv).fill(-1);
  const sides: number[] = []; // pairs (p, q), p -> q CCW around the set cell
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      if (!mask[y * gw + x]) continue;
      const a = y * vw + x,
        b = a + 1,
        c = a + vw + 1,
        d = a + vw;
      if (!cellAt(mask, gw, gh, x, y - 1)) sides.push(a, b);
      if (!cellAt(mask, gw, gh, x + 1, y)) sides.push(b, c);
      if (!cellAt(mask, gw, gh, x, y + 1)) sides.push(c, d);
      if (!cellAt(mask, gw, gh, x - 1, y)) sides.push(d, a);
    }
  }
  for (let s = 0; s < sides.length; s += 2) {
    next[sides[s]!] = sides[s + 1]!;
    prev[sides[s + 1]!] = sides[s]!;
  }
  const rimIters = o.rimSmoothing ?? 0;
  if (rimIters > 0) {
    const tmp = new Float32Array(nv * 2);
    for (let it = 0; it < rimIters; it++) {
      tmp.set(xy);
      for (let v = 0; v < nv; v++) {
        const p = prev[v]!,
          n = next[v]!;
        if (p < 0 || n < 0) continue;
        tmp[v * 2] = 0.5 * xy[v * 2]! + 0.25 * (xy[p * 2]! + xy[n * 2]!);
        tmp[v * 2 + 1] = 0.5 * xy[v * 2 + 1]! + 0.25 * (xy[p * 2 + 1]! + xy[n * 2 + 1]!);
      }
      xy.set(tmp);
    }
  }
  if (o.projectRim) for (let v = 0; v < nv; v++) if (next[v]! >= 0) o.projectRim(xy, v * 2);

  // Vertices: top for every used corner; bottom ones only off the rim.
  const topIdx = new Int32Array(nv).fill(-1);
  const botIdx = new Int32Array(nv).fill(-1);
  let count = 0;
  for (let v = 0; v < nv; v++) if (counts[v]) topIdx[v] = count++;
  for (let v = 0; v < nv; v++) {
    if (!counts[v]) continue;
    botIdx[v] = counts[v]! < 4 ? topIdx[v]! : count++;
  }
  const positions = new Float32Array(count * 3);
  for (let v = 0; v < nv; v++) {
    if (!counts[v]) continue;
    const rim = counts[v]! < 4;
    const t = topIdx[v]! * 3,
      b = botIdx[v]! * 3;
    positions[t] = positions[b] = xy[v * 2]!;
    positions[t + 1] = positions[b + 1] = xy[v * 2 + 1]!;
    positions[t + 2] = rim ? 0 : top[v]!;
    if (b !== t) positions[b + 2] = bottom[v]!;
  }

  const cells = countCells(mask);
  const tris = new Uint32Array(cells * 4 * 3);
  let k = 0;
  const tri = (p: number, q: number, r: number) => {
    tris[k++] = p;
    tris[k++] = q;
    tris[k++] = r;
  };
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      if (!mask[y * gw + x]) continue;
      const a = y * vw + x,
        b = a + 1,
        c = a + vw + 1,
        d = a + vw;
      const useAC = counts[a] === 4 || counts[c] === 4;
      const [ta, tb, tc, td] = [topIdx[a]!, topIdx[b]!, topIdx[c]!, topIdx[d]!];
      const [ba, bb, bc, bd] = [botIdx[a]!, botIdx[b]!, botIdx[c]!, botIdx[d]!];
      if (useAC) {
        tri(ta, tb, tc);
        tri(ta, tc, td);
        tri(ba, bc, bb);
        tri(ba, bd, bc);
      } else {
        tri(ta, tb, td);
        tri(tb, tc, td);
        tri(ba, bd, bb);
        tri(bb, bd, bc);
      }
    }
  }
  return { positions, indices: tris.subarray(0, k) };
}

function countCells(mask: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i]) n++;
  return n;
}
