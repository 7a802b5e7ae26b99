/**
 * GLB reader via @gltf-transform/core: every mesh primitive under the default scene
 * becomes a part with its node's world transform applied, metres -> millimetres.
 * Keeps normals, TEXCOORD (of the base colour texture), COLOR_0 and the PBR material
 * (textures decoded to RGBA with sharp). Meshopt compression is supported; Draco is not.
 * A file whose accessors claim more than their buffer views hold, or whose indices point past the
 * vertex count, is refused (MeshDecodeError), as the Khronos glTF-Validator refuses it.
 */
import {
  Logger,
  NodeIO,
  type Accessor,
  type Material as GltfMaterial,
  type Node,
  type Primitive,
  type Texture,
} from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import { MeshoptDecoder } from "meshoptimizer/decoder";
import type { Material, MeshPart, RasterImage } from "@/lib/engine/mesh/types";
import { decodeImage } from "./common";
import { checkGlbChunks, checkGltfLayout } from "./glb-layout";
import { MeshDecodeError } from "./mesh-decode-error";

const M_TO_MM = 1000;
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** The accessor's values as floats: its own array when it already is one (not copied: only read). */
function readFloats(acc: Accessor): Float32Array {
  const size = acc.getElementSize();
  const arr = acc.getArray();
  if (arr instanceof Float32Array && !acc.getNormalized()) return arr;
  const out = new Float32Array(acc.getCount() * size);
  const el: number[] = [];
  for (let i = 0; i < acc.getCount(); i++) {
    acc.getElement(i, el);
    for (let k = 0; k < size; k++) out[i * size + k] = el[k]!;
  }
  return out;
}

/** The primitive's triangles as corner indices (strips and fans unrolled), in typed arrays: a 4M-triangle mesh is 48 MB, not 400 MB of JS numbers. */
function triangles(prim: Primitive, count: number): Uint32Array {
  const ind = prim.getIndices()?.getArray();
  const n = ind ? ind.length : count;
  const at = ind ? (i: number) => ind[i]! : (i: number) => i;
  const mode = prim.getMode();
  if (mode === 4) {
    const out = new Uint32Array(n - (n % 3));
    if (ind) out.set(ind.subarray(0, out.length));
    else for (let i = 0; i < out.length; i++) out[i] = i;
    return out;
  }
  const out = new Uint32Array(Math.max(0, n - 2) * 3);
  for (let i = 2, o = 0; i < n; i++, o += 3) {
    if (mode === 5) out.set(i % 2 === 0 ? [at(i - 2), at(i - 1), at(i)] : [at(i - 1), at(i - 2), at(i)], o);
    else out.set([at(0), at(i - 1), at(i)], o); // mode 6: fan
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

/**
 * One primitive as a part in millimetres. `taken` holds the accessors whose arrays an earlier
 * part took over (and transformed).
 */
async function convertPrimitive(
  prim: Primitive,
  matrix: ArrayLike<number>,
  name: string,
  materials: MaterialCache,
  taken: Set<Accessor>,
): Promise<MeshPart | null> {
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
  let usedCount = 0;
  for (let i = 0; i < count; i++) if (remap[i] === 0) usedCount++;
  const used = new Uint32Array(usedCount);
  for (let i = 0, u = 0; i < count; i++)
    if (remap[i] === 0) {
      used[u] = i;
      remap[i] = u++;
    }
  const m = matrix;
  const det = m[0]! * (m[5]! * m[10]! - m[9]! * m[6]!) - m[4]! * (m[1]! * m[10]! - m[9]! * m[2]!) + m[8]! * (m[1]! * m[6]! - m[5]! * m[2]!);
  // Cofactor matrix of the upper 3x3 (= det * inverse-transpose), rows as [x, y, z] coefficients.
  const s = det < 0 ? -1 : 1;
  const nm = [
    m[5]! * m[10]! - m[9]! * m[6]!,
    m[9]! * m[2]! - m[1]! * m[10]!,
    m[1]! * m[6]! - m[5]! * m[2]!,
    m[8]! * m[6]! - m[4]! * m[10]!,
    m[0]! * m[10]! - m[8]! * m[2]!,
    m[4]! * m[2]! - m[0]! * m[6]!,
    m[4]! * m[9]! - m[8]! * m[5]!,
    m[8]! * m[1]! - m[0]! * m[9]!,
    m[0]! * m[5]! - m[4]! * m[1]!,
  ].map((c) => c * s);
  const allUsed = used.length === count; // every vertex, in order: the accessor's own array can be taken over
  const gather = (acc: Accessor | null, size: number): Float32Array | undefined => {
    if (!acc || acc.getCount() !== count) return undefined;
    const src = readFloats(acc);
    const stride = acc.getElementSize();
    // The document is dropped after reading, so its arrays are ours to transform in place,
    // once: a mesh placed by two nodes, or an accessor two primitives share, is copied.
    if (allUsed && stride === size && src === acc.getArray() && !taken.has(acc)) {
      taken.add(acc);
      return src;
    }
    const out = new Float32Array(used.length * size);
    for (let i = 0; i < used.length; i++) {
      const v = used[i]!;
      for (let k = 0; k < size; k++) out[i * size + k] = src[v * stride + k]!;
    }
    return out;
  };
  const positions = gather(pos, 3)!;
  for (let i = 0; i < positions.length; i += 3) {
    const x = positions[i]!,
      y = positions[i + 1]!,
      z = positions[i + 2]!;
    positions[i] = (m[0]! * x + m[4]! * y + m[8]! * z + m[12]!) * M_TO_MM;
    positions[i + 1] = (m[1]! * x + m[5]! * y + m[9]! * z + m[13]!) * M_TO_MM;
    positions[i + 2] = (m[2]! * x + m[6]! * y + m[10]! * z + m[14]!) * M_TO_MM;
  }
  const indices = tri; // renumbered in place
  for (let t = 0; t < tri.length; t += 3) {
    // A mirroring transform flips the winding; swap two corners to keep it CCW.
    const a = remap[tri[t]!]!,
      b = remap[tri[t + 1]!]!,
      c = remap[tri[t + 2]!]!;
    indices[t] = a;
    indices[t + 1] = det < 0 ? c : b;
    indices[t + 2] = det < 0 ? b : c;
  }
  const part: MeshPart = { name, positions, indices };
  const normals = gather(prim.getAttribute("NORMAL"), 3);
  if (normals) {
    for (let i = 0; i < normals.length; i += 3) {
      const x = normals[i]!,
        y = normals[i + 1]!,
        z = normals[i + 2]!;
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
  // What the JSON claims of the binary data is checked before gltf-transform reads it: it would
  // read past a buffer view's end instead of refusing the file.
  checkGlbChunks(bytes);
  const json = await io.binaryToJSON(bytes);
  checkGltfLayout(json.json, json.resources);
  const doc = await io.readJSON(json);
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
  const taken = new Set<Accessor>();
  const parts: MeshPart[] = [];
  for (const [n, { node, matrix }] of entries.entries()) {
    const mesh = node?.getMesh();
    if (!mesh) continue;
    const prims = mesh.listPrimitives();
    const base = node?.getName() || mesh.getName() || `part_${n}`;
    for (const [j, prim] of prims.entries()) {
      const part = await convertPrimitive(prim, matrix ?? IDENTITY, prims.length > 1 ? `${base}_${j}` : base, materials, taken);
      if (part) parts.push(part);
    }
  }
  return parts;
}
