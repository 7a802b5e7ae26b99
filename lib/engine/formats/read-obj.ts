/**
 * Wavefront OBJ reader: `o`/`g` start new parts, polygons are fan-triangulated,
 * indices may be negative, corners may be `v`, `v/vt`, `v//vn` or `v/vt/vn`.
 * `v x y z r g b` colours are read as sRGB. Materials (mtllib) are not resolved.
 */
import type { MeshPart } from "@/lib/engine/mesh/types";
import { srgbToLinear } from "./common";
import { MeshDecodeError } from "./mesh-decode-error";

interface PartBuilder {
  name: string;
  positions: number[];
  normals: number[];
  uvs: number[];
  colors: number[];
  indices: number[];
  corners: Map<string, number>;
  missingUv: boolean;
  missingNormal: boolean;
}

const newPart = (name: string): PartBuilder => ({
  name,
  positions: [],
  normals: [],
  uvs: [],
  colors: [],
  indices: [],
  corners: new Map(),
  missingUv: false,
  missingNormal: false,
});

export function readObj(text: string): MeshPart[] {
  const v: number[] = [];
  const vc: number[] = [];
  const vt: number[] = [];
  const vn: number[] = [];
  let anyColor = false;
  const parts: PartBuilder[] = [];
  let current = newPart("obj");
  let lineNo = 0;
  const fail = (msg: string): never => {
    throw new MeshDecodeError(`OBJ line ${lineNo}: ${msg}`);
  };
  const num = (s: string | undefined): number => {
    const x = Number(s);
    return s === undefined || s === "" || !Number.isFinite(x) ? fail(`invalid number "${s ?? ""}"`) : x;
  };
  const resolve = (s: string, count: number): number => {
    const i = Number.parseInt(s, 10);
    if (!Number.isInteger(i) || i === 0) fail(`invalid index "${s}"`);
    const r = i > 0 ? i - 1 : count + i;
    return r < 0 || r >= count ? fail(`index ${i} out of range`) : r;
  };

  for (const raw of text.split(/\r?\n/)) {
    lineNo++;
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const tok = line.split(/\s+/);
    const kw = tok[0];
    if (kw === "v") {
      v.push(num(tok[1]), num(tok[2]), num(tok[3]));
      if (tok.length >= 7) {
        vc.push(num(tok[4]), num(tok[5]), num(tok[6]));
        anyColor = true;
      } else {
        vc.push(1, 1, 1);
      }
    } else if (kw === "vt") {
      vt.push(num(tok[1]), tok[2] === undefined ? 0 : num(tok[2]));
    } else if (kw === "vn") {
      vn.push(num(tok[1]), num(tok[2]), num(tok[3]));
    } else if (kw === "o" || kw === "g") {
      const name = tok.slice(1).join(" ") || "obj";
      if (name !== current.name) {
        if (current.indices.length > 0) parts.push(current);
        current = newPart(name);
      }
    } else if (kw === "f") {
      const ids: number[] = [];
      for (const c of tok.slice(1)) {
        const [si, st, sn] = c.split("/");
        const pi = resolve(si ?? "", v.length / 3);
        const ti = st ? resolve(st, vt.length / 2) : -1;
        const ni = sn ? resolve(sn, vn.length / 3) : -1;
        const key = `${pi}/${ti}/${ni}`;
        let id = current.corners.get(key);
        if (id === undefined) {
          id = current.positions.length / 3;
          current.corners.set(key, id);
          current.positions.push(v[pi * 3]!, v[pi * 3 + 1]!, v[pi * 3 + 2]!);
          current.colors.push(vc[pi * 3]!, vc[pi * 3 + 1]!, vc[pi * 3 + 2]!);
          if (ti >= 0) current.uvs.push(vt[ti * 2]!, 1 - vt[ti * 2 + 1]!);
          else current.missingUv = true;
          if (ni >= 0) current.normals.push(vn[ni * 3]!, vn[ni * 3 + 1]!, vn[ni * 3 + 2]!);
          else current.missingNormal = true;
        }
        ids.push(id);
      }
      if (ids.length < 3) fail("face with fewer than 3 vertices");
      for (let k = 1; k + 1 < ids.length; k++) current.indices.push(ids[0]!, ids[k]!, ids[k + 1]!);
    }
    // vp, l, p, s, usemtl, mtllib and other statements are ignored.
  }
  if (current.indices.length > 0) parts.push(current);

  return parts.map((b) => {
    const part: MeshPart = { name: b.name, positions: new Float32Array(b.positions), indices: new Uint32Array(b.indices) };
    if (!b.missingUv && b.uvs.length > 0) part.uvs = new Float32Array(b.uvs);
    if (!b.missingNormal && b.normals.length > 0) {
      const n = new Float32Array(b.normals);
      for (let i = 0; i < n.length; i += 3) {
        const l = Math.hypot(n[i]!, n[i + 1]!, n[i + 2]!) || 1;
        n[i] = n[i]! / l;
        n[i + 1] = n[i + 1]! / l;
        n[i + 2] = n[i + 2]! / l;
      }
      part.normals = n;
    }
    if (anyColor) {
      const scale = b.colors.some((c) => c > 1) ? 1 / 255 : 1;
      part.colors = new Float32Array(b.colors.map((c) => srgbToLinear(c * scale)));
    }
    return part;
  });
}
