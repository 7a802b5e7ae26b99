/**
 * GLB reader via @gltf-transform/core: every mesh primitive under the default scene
 * becomes a part with its node's world transform applied, metres -> millimetres.
 * Keeps normals, TEXCOORD (of the base colour texture), COLOR_0 and the PBR material
 * (textures decoded to RGBA with sharp). Meshopt compression is supported; Draco is not.
 */
import { Logger, NodeIO, type Accessor, type Material as GltfMaterial, type Node, type Primitive, type Texture } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import { MeshoptDecoder } from "meshoptimizer/decoder";
import type { Material, MeshPart, RasterImage } from "@/lib/engine/mesh/types";
import { decodeImage } from "./common";
import { MeshDecodeError } from "./mesh-decode-error";

const M_TO_MM = 1000;
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function readFloats(acc: Accessor): Float32Array {
  const size = acc.getElementSize();
  const arr = acc.getArray();
  if (arr instanceof Float32Array && !acc.getNormalized()) return new Float32Array(arr);
  const out = new Float32Array(acc.getCount() * size);
  const el: number[] = [];
  for (let i = 0; i < acc.getCount(); i++) {
    acc.getElement(i, el);
    for (let k = 0; k < size; k++) out[i * size + k] = el[k]!;
  }
  return out;
}

function triangles(prim: Primitive, count: number): number[] {
  const ind = prim.getIndices()?.getArray();
  const seq = ind ? Array.from(ind) : Array.from({ length: count }, (_, i) => i);
  const mode = prim.getMode();
  if (mode === 4) return seq.slice(0, seq.length - (seq.length % 3));
  const out: number[] = [];
  for (let i = 2; i < seq.length; i++) {
    if (mode === 5) out.push(...(i % 2 === 0 ? [seq[i - 2]!, seq[i - 1]!, seq[i]!] : [seq[i - 1]!, seq[i - 2]!, seq[i]!]));
    else out.push(seq[0]!, seq[i - 1]!, seq[i]!); // mode 6: fan
  }
  return out;
}

class MaterialCache {
  private readonly materials = new Map<GltfMaterial, Promise<Material>>();
  private readonly images = new Map<Texture, Promise<RasterImage | undefined>>();

  private image(tex: Texture | null): Promise<RasterImage | undefined> {
    if (!tex) return Promise.resolve(undefined);
    let p = this.images.get(tex);
    if (!p) {
      const bytes = tex.getImage();
      // Undecodable images (e.g. KTX2) are dropped rather than failing the whole model.
      p = bytes ? decodeImage(bytes).catch(() => undefined) : Promise.resolve(undefined);
      this.images.set(tex, p);
    }
    return p;
  }

  get(m: GltfMaterial): Promise<Material> {
    let p = this.materials.get(m);
    if (!p) {
      p = (async () => {
        const [r, g, b, a] = m.getBaseColorFactor();
        const out: Material = {
          name: m.getName() || "material",
          baseColorFactor: [r, g, b, a],
          metallicFactor: m.getMetallicFactor(),
          roughnessFactor: m.getRoughnessFactor(),
        };
        const base = await this.image(m.getBaseColorTexture());
        const mr = await this.image(m.getMetallicRoughnessTexture());
        const normal = await this.image(m.getNormalTexture());
        if (base) out.baseColorTexture = base;
        if (mr) out.metallicRoughnessTexture = mr;
        if (normal) out.normalTexture = normal;
        return out;
      })();
      this.materials.set(m, p);
    }
    return p;
  }
}

async function convertPrimitive(prim: Primitive, matrix: ArrayLike<number>, name: string, materials: MaterialCache): Promise<MeshPart | null> {
  const mode = prim.getMode();
  const pos = prim.getAttribute("POSITION");
  if (!pos || (mode !== 4 && mode !== 5 && mode !== 6)) return null;
  const tri = triangles(prim, pos.getCount());
  if (tri.length === 0) return null;
  const count = pos.getCount();
  // Keep only referenced vertices (a primitive may index a shared buffer), in their original order.
  const remap = new Int32Array(count).fill(-1);
  for (const i of tri) {
    if (i >= count) throw new MeshDecodeError(`GLB primitive index ${i} out of range (${count} vertices)`);
    remap[i] = 0;
  }
  const used: number[] = [];
  for (let i = 0; i < count; i++) if (remap[i] === 0) remap[i] = used.push(i) - 1;
  const m = matrix;
  const det = m[0]! * (m[5]! * m[10]! - m[9]! * m[6]!) - m[4]! * (m[1]! * m[10]! - m[9]! * m[2]!) + m[8]! * (m[1]! * m[6]! - m[5]! * m[2]!);
  // Cofactor matrix of the upper 3x3 (= det * inverse-transpose), rows as [x, y, z] coefficients.
  const s = det < 0 ? -1 : 1;
  const nm = [
    m[5]! * m[10]! - m[9]! * m[6]!, m[9]! * m[2]! - m[1]! * m[10]!, m[1]! * m[6]! - m[5]! * m[2]!,
    m[8]! * m[6]! - m[4]! * m[10]!, m[0]! * m[10]! - m[8]! * m[2]!, m[4]! * m[2]! - m[0]! * m[6]!,
    m[4]! * m[9]! - m[8]! * m[5]!, m[8]! * m[1]! - m[0]! * m[9]!, m[0]! * m[5]! - m[4]! * m[1]!,
  ].map((c) => c * s);
  const gather = (acc: Accessor | null, size: number): Float32Array | undefined => {
    if (!acc || acc.getCount() !== count) return undefined;
    const src = readFloats(acc);
    const stride = acc.getElementSize();
    const out = new Float32Array(used.length * size);
    used.forEach((v, i) => {
      for (let k = 0; k < size; k++) out[i * size + k] = src[v * stride + k]!;
    });
    return out;
  };
  const positions = gather(pos, 3)!;
  for (let i = 0; i < positions.length; i += 3) {
    const x = positions[i]!, y = positions[i + 1]!, z = positions[i + 2]!;
    positions[i] = (m[0]! * x + m[4]! * y + m[8]! * z + m[12]!) * M_TO_MM;
    positions[i + 1] = (m[1]! * x + m[5]! * y + m[9]! * z + m[13]!) * M_TO_MM;
    positions[i + 2] = (m[2]! * x + m[6]! * y + m[10]! * z + m[14]!) * M_TO_MM;
  }
  const indices = new Uint32Array(tri.length);
  for (let t = 0; t < tri.length; t += 3) {
    // A mirroring transform flips the winding; swap two corners to keep it CCW.
    indices[t] = remap[tri[t]!]!;
    indices[t + 1] = remap[tri[det < 0 ? t + 2 : t + 1]!]!;
    indices[t + 2] = remap[tri[det < 0 ? t + 1 : t + 2]!]!;
  }
  const part: MeshPart = { name, positions, indices };
  const normals = gather(prim.getAttribute("NORMAL"), 3);
  if (normals) {
    for (let i = 0; i < normals.length; i += 3) {
      const x = normals[i]!, y = normals[i + 1]!, z = normals[i + 2]!;
      const nx = nm[0]! * x + nm[1]! * y + nm[2]! * z;
      const ny = nm[3]! * x + nm[4]! * y + nm[5]! * z;
      const nz = nm[6]! * x + nm[7]! * y + nm[8]! * z;
      const l = Math.hypot(nx, ny, nz) || 1;
      normals.set([nx / l, ny / l, nz / l], i);
    }
    part.normals = normals;
  }
  const material = prim.getMaterial();
  const texCoord = material?.getBaseColorTextureInfo()?.getTexCoord() ?? 0;
  const uvs = gather(prim.getAttribute(`TEXCOORD_${texCoord}`), 2);
  if (uvs) part.uvs = uvs;
  const colors = gather(prim.getAttribute("COLOR_0"), 3);
  if (colors) part.colors = colors;
  if (material) part.material = await materials.get(material);
  return part;
}

let decoderReady: Promise<void> | undefined;

export async function readGlb(bytes: Uint8Array): Promise<MeshPart[]> {
  decoderReady ??= MeshoptDecoder.ready;
  await decoderReady;
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({ "meshopt.decoder": MeshoptDecoder });
  io.setLogger(new Logger(Logger.Verbosity.SILENT));
  const doc = await io.readBinary(bytes);
  const root = doc.getRoot();
  const entries: Array<{ node: Node | null; matrix: ArrayLike<number> }> = [];
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  if (scene) {
    scene.traverse((node) => {
      if (node.getMesh()) entries.push({ node, matrix: node.getWorldMatrix() });
    });
  } else {
    for (const node of root.listNodes()) if (node.getMesh()) entries.push({ node, matrix: node.getWorldMatrix() });
  }
  const materials = new MaterialCache();
  const parts: MeshPart[] = [];
  for (const [n, { node, matrix }] of entries.entries()) {
    const mesh = node?.getMesh();
    if (!mesh) continue;
    const prims = mesh.listPrimitives();
    const base = node?.getName() || mesh.getName() || `part_${n}`;
    for (const [j, prim] of prims.entries()) {
      const part = await convertPrimitive(prim, matrix ?? IDENTITY, prims.length > 1 ? `${base}_${j}` : base, materials);
      if (part) parts.push(part);
    }
  }
  return parts;
}
