/**
 * Adaptive closed relief solids over a cell mask. The top is a height field on the cell
 * corners, triangulated as a right-triangulated irregular network (RTIN, the restricted
 * binary triangle tree of Evans et al. / Mapbox "martini"): a triangle is split at its
 * hypotenuse midpoint while a bound on its height error exceeds `maxError`, so every grid
 * corner lies within maxError of the surface (see propagateErrors), and the result has no
 * T-junctions. Flat areas become a few large triangles; detail keeps full resolution;
 * `maxTriangles` caps the top by raising the error (fitBudget). Cells on the outline are
 * always at full resolution, so the outline is made of unit cell sides like a plain grid.
 * The bottom (flat, height 0) is the same tree refined only along the outline, and
 * vertical walls join the two along every outline side. The output is closed and
 * two-manifold when the mask has no diagonal pinches (regularizeGridMask), in the grid
 * frame (x = column, y = row, z = height), counter-clockwise seen from outside. Outline
 * smoothing / projection never folds a triangle over (untangleRim).
 */

export interface ReliefSolidOptions {
  mask: Uint8Array;
  /** Cells across and down; the mask is gw * gh. */
  gw: number;
  gh: number;
  /** Top height per corner ((gw + 1) * (gh + 1)); must be > 0 where used. */
  top: Float32Array;
  /** Largest height error allowed when merging triangles (same unit as `top`). */
  maxError: number;
  /** Upper bound on the triangle count: maxError grows until it fits (outline kept). */
  maxTriangles?: number;
  /** Corner vertices always kept (e.g. the highest and lowest point). */
  keep?: number[];
  /** Laplacian smoothing iterations of the outline in the plane (default 0). */
  rimSmoothing?: number;
  /** Moves outline vertex (x, y at xy[o], xy[o + 1]) in place, after smoothing. */
  projectRim?: (xy: Float32Array, offset: number) => void;
}

export interface ReliefSolid {
  positions: Float32Array;
  indices: Uint32Array;
  /** The height error finally used (>= maxError when the triangle budget bound). */
  error: number;
  /** Triangles in the top surface. */
  topTriangles: number;
}

/**
 * Propagates vertex errors up the triangle tree of a size x size corner grid (size =
 * 2^k + 1), level by level from the finest. `err` holds initial values (Infinity = must
 * keep). A midpoint m gets d(m) + max(err of its children's midpoints), d(m) being the
 * height error at m of interpolating along the hypotenuse it splits. That bounds the
 * height error of the triangle's plane at every grid corner inside it (the plane of a
 * child differs from the parent's by at most d(m), at m), so a leaf accepted at
 * err <= maxError is within maxError of the height field everywhere; and err[m] >= the
 * children's err, which keeps the triangulation free of T-junctions.
 */
function propagateErrors(err: Float32Array, size: number, terrain: Float32Array): void {
  const max = size - 1;
  for (let s = 2; s <= max; s *= 2) {
    const hs = s >> 1,
      q = hs >> 1;
    // Hypotenuses along cell-aligned edges of length s: midpoints of horizontal edges
    // (y % s == 0, x % s == hs) and vertical edges (x % s == 0, y % s == hs). Their
    // children are the diagonal hypotenuses centred at (x +- q, y +- q).
    for (let pass = 0; pass < 2; pass++) {
      const yStart = pass === 0 ? 0 : hs,
        xStart = pass === 0 ? hs : 0;
      const step = pass === 0 ? hs : hs * size; // from the midpoint to the edge's ends
      for (let y = yStart; y <= max; y += s) {
        const up = y >= q ? -q * size : 0,
          down = y + q <= max ? q * size : 0;
        for (let x = xStart; x <= max; x += s) {
          const m = y * size + x;
          let e = 0;
          if (q >= 1) {
            const left = x >= q ? -q : 0,
              right = x + q <= max ? q : 0;
            // Out-of-grid children fall back to m itself (only its forced value, if any).
            e = Math.max(err[m + up + left]!, err[m + up + right]!, err[m + down + left]!, err[m + down + right]!);
          }
          e += Math.abs((terrain[m - step]! + terrain[m + step]!) * 0.5 - terrain[m]!);
          err[m] = Math.max(e, err[m]!);
        }
      }
    }
    // Hypotenuses along diagonals of s x s squares: midpoints at the square centres. The
    // diagonal runs "\" when (qx + qy) is even, "/" when odd (see walkTree); the children
    // are the four edge midpoints.
    const hv = hs * size;
    for (let y = hs; y < max; y += s) {
      const qy = (y - hs) / s;
      for (let x = hs, qx = 0; x < max; x += s, qx++) {
        const m = y * size + x;
        const back = ((qx + qy) & 1) === 0;
        const a = back ? m - hv - hs : m - hv + hs,
          b = back ? m + hv + hs : m + hv - hs;
        const e =
          Math.max(err[m - hs]!, err[m + hs]!, err[m - hv]!, err[m + hv]!) + Math.abs((terrain[a]! + terrain[b]!) * 0.5 - terrain[m]!);
        err[m] = Math.max(e, err[m]!);
      }
    }
  }
}

/**
 * Walks the triangle tree, calling emit with the corners (hypotenuse a-b, apex c) of
 * every leaf: a triangle is split while err[midpoint] > maxError and it is not a unit one.
 */
type Leaf = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => void;

function walkTree(err: Float32Array, size: number, maxError: number, emit: Leaf): void {
  const max = size - 1;
  const go = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number): void => {
    const mx = (ax + bx) >> 1,
      my = (ay + by) >> 1;
    if (Math.abs(ax - cx) + Math.abs(ay - cy) > 1 && err[my * size + mx]! > maxError) {
      go(cx, cy, ax, ay, mx, my);
      go(bx, by, cx, cy, mx, my);
    } else {
      emit(ax, ay, bx, by, cx, cy);
    }
  };
  go(0, 0, max, max, max, 0);
  go(max, max, 0, 0, 0, max);
}

/**
 * The smallest threshold >= maxError (on a log grid) whose top surface has at most `budget`
 * triangles. Since err never grows down the tree, threshold T splits exactly the triangles
 * whose midpoint m has err[m] > T, each split adding one leaf: the whole tile has
 * 2 + sum over those m of (2 triangles share m, 1 on the tile border) leaves, which a log
 * histogram of err gives for every T at once. Leaves outside the mask are at least those
 * of the forced-only walk (`outsideLeaves`), so subtracting that bounds the top from above.
 */
function fitBudget(err: Float32Array, size: number, maxError: number, budget: number, outsideLeaves: () => number): number {
  const bins = 1024;
  let hiErr = maxError;
  for (let m = 0; m < err.length; m++) if (err[m]! > hiErr && err[m]! !== Infinity) hiErr = err[m]!;
  const lo = Math.log(maxError),
    span = Math.max(1e-9, Math.log(hiErr) - lo);
  const hist = new Float64Array(bins + 1);
  let leaves = 2;
  for (let y = 0; y < size; y++) {
    const edgeRow = y === 0 || y === size - 1;
    for (let x = 0, m = y * size; x < size; x++, m++) {
      const e = err[m]!;
      const edgeCol = x === 0 || x === size - 1;
      // The tile's corners are never midpoints (a forced one splits nothing by itself).
      if (!(e > maxError) || (edgeRow && edgeCol)) continue;
      const mult = edgeRow || edgeCol ? 1 : 2;
      leaves += mult;
      if (e !== Infinity) hist[Math.min(bins, Math.floor(((Math.log(e) - lo) / span) * bins))]! += mult;
    }
  }
  const outside = outsideLeaves();
  if (leaves - outside <= budget) return maxError;
  // Raising T past bin i's upper edge removes bin i's splits.
  let i = 0;
  while (i <= bins && leaves - outside > budget) leaves -= hist[i++]!;
  return i > bins ? FORCED_ONLY : Math.exp(lo + (i / bins) * span);
}

/** Leaves walked with this threshold are split only where an error is Infinity (forced). */
const FORCED_ONLY = 3e38;

export function buildReliefSolid(o: ReliefSolidOptions): ReliefSolid {
  const { mask, gw, gh, top } = o;
  const vw = gw + 1,
    vh = gh + 1;
  let tile = 2;
  while (tile < Math.max(gw, gh)) tile *= 2;
  const size = tile + 1; // 2^k + 1 corners per side
  const cell = (x: number, y: number) => (x >= 0 && y >= 0 && x < gw && y < gh ? mask[y * gw + x]! : 0);

  // Outline sides (p, q), p -> q counter-clockwise around the set cell, in tree indices.
  const sides: number[] = [];
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const i = y * gw + x;
      if (!mask[i]) continue;
      const up = y > 0 ? mask[i - gw]! : 0,
        right = x + 1 < gw ? mask[i + 1]! : 0;
      const down = y + 1 < gh ? mask[i + gw]! : 0,
        left = x > 0 ? mask[i - 1]! : 0;
      if (up & right & down & left) continue;
      const a = y * size + x,
        b = a + 1,
        c = a + size + 1,
        d = a + size;
      if (!up) sides.push(a, b);
      if (!right) sides.push(b, c);
      if (!down) sides.push(c, d);
      if (!left) sides.push(d, a);
    }
  }
  // Forced vertices: the outline and `keep`; then the height errors.
  const err = new Float32Array(size * size);
  for (const v of sides) err[v] = Infinity;
  for (const v of o.keep ?? []) if (v >= 0 && v < vw * vh) err[Math.floor(v / vw) * size + (v % vw)] = Infinity;
  const terrain = new Float32Array(size * size);
  for (let j = 0; j < vh; j++) terrain.set(top.subarray(j * vw, j * vw + vw), j * size);
  propagateErrors(err, size, terrain);

  // A leaf is kept when the cell under its centroid is set (leaves never straddle the
  // outline: any triangle with an outline corner strictly inside or on a side was split).
  const inside = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean =>
    cell(Math.floor((ax + bx + cx) / 3), Math.floor((ay + by + cy) / 3)) === 1;
  // Outline positions in the plane (smoothed / projected); other corners stay on the grid.
  const rimAt = new Map<number, number>();
  const rim: number[] = [];
  for (let s = 0; s < sides.length; s += 2) {
    rimAt.set(sides[s]!, rim.length);
    rim.push(sides[s]!);
  }
  const rxy = new Float32Array(rim.length * 2);
  rim.forEach((v, k) => {
    rxy[k * 2] = v % size;
    rxy[k * 2 + 1] = Math.floor(v / size);
  });
  const rimIters = o.rimSmoothing ?? 0;
  if (rimIters > 0) {
    const next = new Int32Array(rim.length),
      prev = new Int32Array(rim.length);
    for (let s = 0; s < sides.length; s += 2) {
      const p = rimAt.get(sides[s]!)!,
        n = rimAt.get(sides[s + 1]!)!;
      next[p] = n;
      prev[n] = p;
    }
    const tmp = new Float32Array(rxy.length);
    for (let it = 0; it < rimIters; it++) {
      for (let k = 0; k < rim.length; k++) {
        const p = prev[k]!,
          n = next[k]!;
        tmp[k * 2] = 0.5 * rxy[k * 2]! + 0.25 * (rxy[p * 2]! + rxy[n * 2]!);
        tmp[k * 2 + 1] = 0.5 * rxy[k * 2 + 1]! + 0.25 * (rxy[p * 2 + 1]! + rxy[n * 2 + 1]!);
      }
      rxy.set(tmp);
    }
  }
  if (o.projectRim) for (let k = 0; k < rim.length; k++) o.projectRim(rxy, k * 2);

  // Emit both surfaces, numbering vertices on first use.
  const topIdx = new Int32Array(size * size).fill(-1);
  const botIdx = new Int32Array(size * size).fill(-1);
  let pos = new Float32Array(3 * 65536),
    nPos = 0;
  let tris = new Uint32Array(3 * 65536),
    nTri = 0;
  const vertex = (map: Int32Array, g: number, z: number): number => {
    const i = map[g]!;
    if (i >= 0) return i;
    if (nPos + 3 > pos.length) {
      const grown = new Float32Array(pos.length * 2);
      grown.set(pos);
      pos = grown;
    }
    const k = rimAt.get(g);
    const gx = g % size;
    pos[nPos] = k === undefined ? gx : rxy[k * 2]!;
    pos[nPos + 1] = k === undefined ? (g - gx) / size : rxy[k * 2 + 1]!;
    pos[nPos + 2] = z;
    nPos += 3;
    return (map[g] = nPos / 3 - 1);
  };
  const tri = (a: number, b: number, c: number) => {
    if (nTri + 3 > tris.length) {
      const grown = new Uint32Array(tris.length * 2);
      grown.set(tris);
      tris = grown;
    }
    tris[nTri++] = a;
    tris[nTri++] = b;
    tris[nTri++] = c;
  };
  // Unit leaves (half cells) are collected per cell: when both halves of a cell are leaves
  // its diagonal is free, and it is chosen so that no triangle has all three corners on
  // the outline where avoidable (such "ears" fold over when the outline is smoothed).
  const halves = new Uint8Array(gw * gh); // bit k: the half whose right-angle corner is corner k
  const rimFlag = new Uint8Array(size * size);
  for (const g of rim) rimFlag[g] = 1;
  const isRim = (g: number) => rimFlag[g] === 1;
  /** Emits one surface; false when it would exceed `limit` triangles (then partial). */
  const emitSurface = (threshold: number, isTop: boolean): void => {
    const map = isTop ? topIdx : botIdx;
    const v = (g: number) => vertex(map, g, isTop ? terrain[g]! : 0);
    const put = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => {
      // Counter-clockwise in the plane seen from +z for the top, clockwise for the bottom.
      const up = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0;
      const a = v(ay * size + ax),
        b = v(by * size + bx),
        c = v(cy * size + cx);
      if (up === isTop) tri(a, b, c);
      else tri(a, c, b);
    };
    const touched: number[] = [];
    walkTree(err, size, threshold, (ax, ay, bx, by, cx, cy) => {
      if (!inside(ax, ay, bx, by, cx, cy)) return;
      if (Math.abs(ax - bx) === 1 && Math.abs(cx - ax) + Math.abs(cy - ay) === 1) {
        const x0 = Math.min(ax, bx),
          y0 = Math.min(ay, by);
        const k = cy === y0 ? (cx === x0 ? 0 : 1) : cx === x0 ? 3 : 2; // corners a b c d
        const ci = y0 * gw + x0;
        if (!halves[ci]) touched.push(ci);
        halves[ci]! |= 1 << k;
        return;
      }
      put(ax, ay, bx, by, cx, cy);
    });
    for (const ci of touched) {
      const bits = halves[ci]!;
      halves[ci] = 0;
      const x = ci % gw,
        y = (ci - x) / gw,
        x1 = x + 1,
        y1 = y + 1;
      if (bits === 0b0101 || bits === 0b1010) {
        const ga = y * size + x,
          gb = ga + 1,
          gc = ga + size + 1,
          gd = ga + size;
        const earsAC = (isRim(ga) && isRim(gb) && isRim(gc) ? 1 : 0) + (isRim(ga) && isRim(gc) && isRim(gd) ? 1 : 0);
        const earsBD = (isRim(ga) && isRim(gb) && isRim(gd) ? 1 : 0) + (isRim(gb) && isRim(gc) && isRim(gd) ? 1 : 0);
        // Halves at corners b and d share diagonal AC (bits 0b1010); keep the tree's
        // diagonal unless the other one has fewer ears.
        const useAC = bits === 0b1010 ? earsAC <= earsBD : earsAC < earsBD;
        if (useAC) {
          put(x, y, x1, y, x1, y1);
          put(x, y, x1, y1, x, y1);
        } else {
          put(x, y, x1, y, x, y1);
          put(x1, y, x1, y1, x, y1);
        }
      } else {
        const k = 31 - Math.clz32(bits);
        const X = [x, x1, x1, x],
          Y = [y, y, y1, y1];
        const p = (k + 3) % 4,
          q = (k + 1) % 4;
        put(X[p]!, Y[p]!, X[k]!, Y[k]!, X[q]!, Y[q]!);
      }
    }
  };
  let error = o.maxError;
  const budget = o.maxTriangles ?? Infinity;
  if (Number.isFinite(budget))
    error = fitBudget(err, size, error, budget, () => {
      let outside = 0;
      walkTree(err, size, FORCED_ONLY, (ax, ay, bx, by, cx, cy) => {
        if (!inside(ax, ay, bx, by, cx, cy)) outside++;
      });
      return outside;
    });
  emitSurface(error, true);
  const topTriangles = nTri / 3;
  emitSurface(FORCED_ONLY, false);
  const faceEnd = nTri;
  for (let s = 0; s < sides.length; s += 2) {
    const p = sides[s]!,
      q = sides[s + 1]!;
    const tp = vertex(topIdx, p, terrain[p]!),
      tq = vertex(topIdx, q, terrain[q]!);
    const bp = vertex(botIdx, p, 0),
      bq = vertex(botIdx, q, 0);
    tri(tp, bp, bq);
    tri(tp, bq, tq);
  }
  if (rimIters > 0 || o.projectRim) untangleRim(pos.subarray(0, nPos), tris, topTriangles, faceEnd / 3, rim, size, topIdx, botIdx);
  return { positions: pos.slice(0, nPos), indices: tris.slice(0, nTri), error, topTriangles };
}

/**
 * Outline smoothing / projection moves outline corners in the plane, which can fold thin
 * triangles over (e.g. a cell whose four corners are all on a one-step staircase). Each
 * top / bottom triangle touching the outline must keep at least 2% of its grid area with
 * its orientation; the moves of the outline corners of a failing triangle are halved
 * (after a few rounds, dropped) until none fails. Edits `pos` in place.
 */
function untangleRim(
  pos: Float32Array,
  tris: Uint32Array,
  topTriangles: number,
  faceTriangles: number,
  rim: number[],
  size: number,
  topIdx: Int32Array,
  botIdx: Int32Array,
): void {
  const nv = pos.length / 3;
  const rimOf = new Int32Array(nv).fill(-1);
  rim.forEach((g, k) => {
    if (topIdx[g]! >= 0) rimOf[topIdx[g]!] = k;
    if (botIdx[g]! >= 0) rimOf[botIdx[g]!] = k;
  });
  const gx = (k: number) => rim[k]! % size,
    gy = (k: number) => Math.floor(rim[k]! / size);
  const dx = new Float32Array(rim.length),
    dy = new Float32Array(rim.length),
    f = new Float32Array(rim.length).fill(1);
  for (let v = 0; v < nv; v++) {
    const k = rimOf[v]!;
    if (k >= 0) {
      dx[k] = pos[v * 3]! - gx(k);
      dy[k] = pos[v * 3 + 1]! - gy(k);
    }
  }
  const watched: number[] = [];
  for (let t = 0; t < faceTriangles; t++) {
    if (rimOf[tris[t * 3]!]! >= 0 || rimOf[tris[t * 3 + 1]!]! >= 0 || rimOf[tris[t * 3 + 2]!]! >= 0) watched.push(t);
  }
  const rimVerts: number[] = [];
  for (let v = 0; v < nv; v++) if (rimOf[v]! >= 0) rimVerts.push(v);
  const orig = (v: number, c: 0 | 1) => {
    const k = rimOf[v]!;
    return k < 0 ? pos[v * 3 + c]! : c === 0 ? gx(k) : gy(k);
  };
  const area = (a: number, b: number, c: number, at: (v: number, c: 0 | 1) => number) =>
    (at(b, 0) - at(a, 0)) * (at(c, 1) - at(a, 1)) - (at(b, 1) - at(a, 1)) * (at(c, 0) - at(a, 0));
  const now = (v: number, c: 0 | 1) => pos[v * 3 + c]!;
  const shrink = new Uint8Array(rim.length);
  for (let round = 0; round < 8; round++) {
    let any = false;
    for (const t of watched) {
      const a = tris[t * 3]!,
        b = tris[t * 3 + 1]!,
        c = tris[t * 3 + 2]!;
      const sign = t < topTriangles ? 1 : -1;
      if (sign * area(a, b, c, now) >= 0.02 * Math.abs(area(a, b, c, orig))) continue;
      for (const v of [a, b, c])
        if (rimOf[v]! >= 0) {
          shrink[rimOf[v]!] = 1;
          any = true;
        }
    }
    if (!any) return;
    for (let k = 0; k < rim.length; k++) if (shrink[k]) f[k] = round >= 5 ? 0 : f[k]! * 0.5;
    for (const v of rimVerts) {
      const k = rimOf[v]!;
      if (!shrink[k]) continue;
      pos[v * 3] = gx(k) + f[k]! * dx[k]!;
      pos[v * 3 + 1] = gy(k) + f[k]! * dy[k]!;
    }
    for (const v of rimVerts) shrink[rimOf[v]!] = 0;
  }
}
