/** Helpers for the display-copy tests (not used at runtime). */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Document, Node as GltfNode, Primitive } from "@gltf-transform/core";
import { expect } from "vitest";
import type { MeshPart, RasterImage } from "@/lib/engine/mesh/types";
import { createIO } from "./read-source";

interface ValidatorMessage {
  code: string;
  message: string;
  severity: number;
  pointer?: string;
}

interface ValidatorReport {
  issues: { numErrors: number; numWarnings: number; messages: ValidatorMessage[] };
}

interface GltfValidator {
  validateBytes(
    data: Uint8Array,
    options?: { uri?: string; format?: "glb"; maxIssues?: number; writeTimestamp?: boolean },
  ): Promise<ValidatorReport>;
}

// The package ships no type declarations; load it through require with a typed facade.
const { validateBytes } = createRequire(import.meta.url)("gltf-validator") as GltfValidator;

/** Asserts the Khronos validator finds no error in `bytes`; returns the report. */
export async function expectValidGlb(bytes: Uint8Array, label: string): Promise<ValidatorReport> {
  const report = await validateBytes(bytes, { uri: `${label}.glb`, format: "glb", maxIssues: 0, writeTimestamp: false });
  const listing = report.issues.messages.map((m) => `  [${m.severity}] ${m.code} ${m.pointer ?? ""}: ${m.message}`).join("\n");
  expect(report.issues.numErrors, `${label}: glTF validator errors\n${listing}`).toBe(0);
  return report;
}

export const sha256 = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");

/** Reads a written copy back (meshopt-decoded, dequantised on access). */
export async function readGlb(file: string): Promise<Document> {
  return (await createIO()).read(file);
}

/** Every vertex of the drawn primitives that `pick` accepts: world-space positions and their uvs (0 when none). */
export function drawnVertices(
  doc: Document,
  pick: (prim: Primitive) => boolean = () => true,
): { positions: Float32Array; uvs: Float32Array } {
  const positions: number[] = [];
  const uvs: number[] = [];
  const v: [number, number, number] = [0, 0, 0];
  const uv: [number, number] = [0, 0];
  for (const scene of doc.getRoot().listScenes()) {
    scene.traverse((node: GltfNode) => {
      const m = node.getWorldMatrix();
      for (const prim of (node.getMesh()?.listPrimitives() ?? []).filter(pick)) {
        const pos = prim.getAttribute("POSITION")!;
        const tex = prim.getAttribute("TEXCOORD_0");
        for (let i = 0; i < pos.getCount(); i++) {
          pos.getElement(i, v);
          positions.push(
            m[0] * v[0] + m[4] * v[1] + m[8] * v[2] + m[12],
            m[1] * v[0] + m[5] * v[1] + m[9] * v[2] + m[13],
            m[2] * v[0] + m[6] * v[1] + m[10] * v[2] + m[14],
          );
          if (tex) tex.getElement(i, uv);
          uvs.push(...(tex ? uv : [0, 0]));
        }
      }
    });
  }
  return { positions: new Float32Array(positions), uvs: new Float32Array(uvs) };
}

/** Diagonal of the points' bounding box. */
export function diagonal(p: Float32Array): number {
  const min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i++) {
    min[i % 3] = Math.min(min[i % 3]!, p[i]!);
    max[i % 3] = Math.max(max[i % 3]!, p[i]!);
  }
  return Math.hypot(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!);
}

/** The largest distance from a point of `a` to its nearest point of `b` (grid of cell `cell`). */
export function maxNearestDistance(a: Float32Array, b: Float32Array, cell: number): number {
  const key = (x: number, y: number, z: number): string => `${Math.floor(x / cell)},${Math.floor(y / cell)},${Math.floor(z / cell)}`;
  const grid = new Map<string, number[]>();
  for (let i = 0; i < b.length; i += 3) {
    const k = key(b[i]!, b[i + 1]!, b[i + 2]!);
    const bucket = grid.get(k);
    if (bucket) bucket.push(i);
    else grid.set(k, [i]);
  }
  let worst = 0;
  for (let i = 0; i < a.length; i += 3) {
    let best = Infinity;
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (let dz = -1; dz <= 1; dz++) {
          for (const j of grid.get(key(a[i]! + dx * cell, a[i + 1]! + dy * cell, a[i + 2]! + dz * cell)) ?? []) {
            best = Math.min(best, Math.hypot(a[i]! - b[j]!, a[i + 1]! - b[j + 1]!, a[i + 2]! - b[j + 2]!));
          }
        }
    worst = Math.max(worst, best);
  }
  return worst;
}

/** A smooth RGBA gradient (compresses like a real texture, unlike noise). */
export function gradientTexture(size: number): RasterImage {
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) data.set([(x * 255) / size, (y * 255) / size, ((x + y) * 127) / size, 255], (y * size + x) * 4);
  }
  return { width: size, height: size, data };
}

/**
 * A textured latitude-longitude sphere with a uv seam: (rings + 1) x (segments + 1) vertices,
 * 2 * segments * (rings - 1) triangles (none degenerate at the poles).
 */
export function texturedSphere(rings: number, segments: number, radius = 100): MeshPart {
  const n = (rings + 1) * (segments + 1);
  const positions = new Float32Array(n * 3),
    normals = new Float32Array(n * 3),
    uvs = new Float32Array(n * 2);
  for (let r = 0, v = 0; r <= rings; r++) {
    for (let s = 0; s <= segments; s++, v++) {
      const th = (Math.PI * r) / rings,
        ph = (2 * Math.PI * s) / segments;
      const dir = [Math.sin(th) * Math.cos(ph), Math.cos(th), -Math.sin(th) * Math.sin(ph)];
      for (let k = 0; k < 3; k++) [positions[v * 3 + k], normals[v * 3 + k]] = [radius * dir[k]!, dir[k]!];
      uvs.set([s / segments, r / rings], v * 2);
    }
  }
  const indices = new Uint32Array(2 * segments * (rings - 1) * 3);
  let o = 0;
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = r * (segments + 1) + s,
        b = a + segments + 1;
      if (r > 0) indices.set([a, b, a + 1], (o += 3) - 3);
      if (r < rings - 1) indices.set([a + 1, b, b + 1], (o += 3) - 3);
    }
  }
  return {
    name: "sphere",
    positions,
    normals,
    uvs,
    indices,
    material: {
      name: "skin",
      baseColorFactor: [1, 1, 1, 1],
      baseColorTexture: gradientTexture(1024),
      metallicFactor: 0,
      roughnessFactor: 0.7,
    },
  };
}

/**
 * Marks a binary STL as coloured ("COLOR=" header, grey default) and gives facet t the
 * 15-bit colour `colourOf(t)` (bits 0-4 red, 5-9 green, 10-14 blue; 0x8000 = the default).
 */
export function withFacetColours(stl: Uint8Array, colourOf: (t: number) => number): Uint8Array {
  const out = stl.slice();
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode("COLOR="), 0);
  out.set([128, 128, 128, 255], 6);
  const count = view.getUint32(80, true);
  for (let t = 0; t < count; t++) view.setUint16(84 + 50 * t + 48, colourOf(t), true);
  return out;
}
