/**
 * GLB writer via @gltf-transform/core: one node + mesh per part, POSITION / NORMAL /
 * TEXCOORD_0 / COLOR_0, metallic-roughness PBR material with PNG textures.
 * Positions are scaled from millimetres to metres (glTF's unit) in the vertex data.
 * The output must pass the Khronos glTF validator with zero errors (gltf-validation.test.ts),
 * so the writer sanitises what the spec constrains: unit normals, colours in 0..1, and no
 * texture bindings on a primitive without TEXCOORD_0.
 */
import { Document, NodeIO, type Material as GltfMaterial, type Texture } from "@gltf-transform/core";
import type { Material, MeshPart, RasterImage, Scene } from "@/lib/engine/mesh/types";
import { PngCache, assertValidScene, hasAttr, partNormals } from "./common";

const MM_TO_M = 0.001;

/**
 * Unit-length normals (glTF requires them): given normals are renormalised; zero or
 * non-finite ones (unreferenced or degenerate-only vertices, bad input files) fall back to
 * the smooth face normal, else +Y.
 */
function unitNormals(part: MeshPart): Float32Array<ArrayBuffer> {
  const src = partNormals(part);
  const out = new Float32Array(src.length);
  let smooth: Float32Array | undefined;
  for (let i = 0; i < src.length; i += 3) {
    let x = src[i]!,
      y = src[i + 1]!,
      z = src[i + 2]!;
    let len = Math.hypot(x, y, z);
    if (!(len > 1e-12 && Number.isFinite(len))) {
      smooth ??= src === part.normals ? partNormals({ ...part, normals: undefined }) : src;
      x = smooth[i]!;
      y = smooth[i + 1]!;
      z = smooth[i + 2]!;
      len = Math.hypot(x, y, z);
      if (!(len > 1e-12 && Number.isFinite(len))) [x, y, z, len] = [0, 1, 0, 1];
    }
    out[i] = x / len;
    out[i + 1] = y / len;
    out[i + 2] = z / len;
  }
  return out;
}

/** Float COLOR_0 must lie in 0..1. */
function clampedColors(colors: Float32Array): Float32Array<ArrayBuffer> {
  const out = new Float32Array(colors.length);
  for (let i = 0; i < colors.length; i++) {
    const c = colors[i]!;
    out[i] = c > 0 ? Math.min(c, 1) : 0; // NaN -> 0
  }
  return out;
}

export async function writeGlb(scene: Scene): Promise<Uint8Array> {
  assertValidScene(scene);
  const doc = new Document();
  doc.getRoot().getAsset().generator = "x3d";
  const buffer = doc.createBuffer();
  const root = doc.createScene("Scene");
  doc.getRoot().setDefaultScene(root);
  const pngs = new PngCache();
  const textures = new Map<RasterImage, Texture>();
  // Keyed by material and whether the primitive has uvs (textures need TEXCOORD_0).
  const materials = new Map<Material, { textured?: GltfMaterial; plain?: GltfMaterial }>();

  const texture = async (img: RasterImage, name: string): Promise<Texture> => {
    let tex = textures.get(img);
    if (!tex) {
      tex = doc
        .createTexture(name)
        .setMimeType("image/png")
        .setImage(await pngs.get(img));
      textures.set(img, tex);
    }
    return tex;
  };

  const material = async (m: Material, withUvs: boolean): Promise<GltfMaterial> => {
    const variants = materials.get(m) ?? {};
    materials.set(m, variants);
    const key = withUvs ? "textured" : "plain";
    const hit = variants[key];
    if (hit) return hit;
    const out = doc
      .createMaterial(m.name)
      .setBaseColorFactor([...m.baseColorFactor])
      .setMetallicFactor(m.metallicFactor)
      .setRoughnessFactor(m.roughnessFactor);
    if (m.baseColorFactor[3] < 1) out.setAlphaMode("BLEND");
    if (withUvs) {
      if (m.baseColorTexture) out.setBaseColorTexture(await texture(m.baseColorTexture, `${m.name} baseColor`));
      if (m.metallicRoughnessTexture) {
        out.setMetallicRoughnessTexture(await texture(m.metallicRoughnessTexture, `${m.name} metallicRoughness`));
      }
      if (m.normalTexture) out.setNormalTexture(await texture(m.normalTexture, `${m.name} normal`));
    }
    variants[key] = out;
    return out;
  };

  for (const part of scene.parts) {
    if (part.indices.length === 0) continue; // glTF forbids empty accessors
    const n = part.positions.length / 3;
    const positions = new Float32Array(n * 3);
    for (let i = 0; i < positions.length; i++) positions[i] = part.positions[i]! * MM_TO_M;
    const prim = doc
      .createPrimitive()
      .setAttribute("POSITION", doc.createAccessor().setType("VEC3").setArray(positions).setBuffer(buffer))
      .setAttribute("NORMAL", doc.createAccessor().setType("VEC3").setArray(unitNormals(part)).setBuffer(buffer));
    const withUvs = hasAttr(part.uvs, part, 2);
    if (withUvs && part.uvs) {
      prim.setAttribute("TEXCOORD_0", doc.createAccessor().setType("VEC2").setArray(new Float32Array(part.uvs)).setBuffer(buffer));
    }
    if (hasAttr(part.colors, part, 3)) {
      prim.setAttribute("COLOR_0", doc.createAccessor().setType("VEC3").setArray(clampedColors(part.colors)).setBuffer(buffer));
    }
    const indices = n <= 0xffff ? new Uint16Array(part.indices) : new Uint32Array(part.indices);
    prim.setIndices(doc.createAccessor().setType("SCALAR").setArray(indices).setBuffer(buffer));
    if (part.material) prim.setMaterial(await material(part.material, withUvs));
    const mesh = doc.createMesh(part.name).addPrimitive(prim);
    root.addChild(doc.createNode(part.name).setMesh(mesh));
  }
  return new NodeIO().writeBinary(doc);
}
