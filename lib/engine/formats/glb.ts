/**
 * GLB writer via @gltf-transform/core: one node + mesh per part, POSITION / NORMAL /
 * TEXCOORD_0 / COLOR_0, metallic-roughness PBR material with PNG textures.
 * Positions are scaled from millimetres to metres (glTF's unit) in the vertex data.
 */
import { Document, NodeIO, type Material as GltfMaterial, type Texture } from "@gltf-transform/core";
import type { Material, RasterImage, Scene } from "@/lib/engine/mesh/types";
import { PngCache, assertValidScene, hasAttr, partNormals } from "./common";

const MM_TO_M = 0.001;

export async function writeGlb(scene: Scene): Promise<Uint8Array> {
  assertValidScene(scene);
  const doc = new Document();
  doc.getRoot().getAsset().generator = "x3d";
  const buffer = doc.createBuffer();
  const root = doc.createScene("Scene");
  doc.getRoot().setDefaultScene(root);
  const pngs = new PngCache();
  const textures = new Map<RasterImage, Texture>();
  const materials = new Map<Material, GltfMaterial>();

  const texture = async (img: RasterImage, name: string): Promise<Texture> => {
    let tex = textures.get(img);
    if (!tex) {
      tex = doc.createTexture(name).setMimeType("image/png").setImage(await pngs.get(img));
      textures.set(img, tex);
    }
    return tex;
  };

  const material = async (m: Material): Promise<GltfMaterial> => {
    const hit = materials.get(m);
    if (hit) return hit;
    const out = doc
      .createMaterial(m.name)
      .setBaseColorFactor([...m.baseColorFactor])
      .setMetallicFactor(m.metallicFactor)
      .setRoughnessFactor(m.roughnessFactor);
    if (m.baseColorFactor[3] < 1) out.setAlphaMode("BLEND");
    if (m.baseColorTexture) out.setBaseColorTexture(await texture(m.baseColorTexture, `${m.name} baseColor`));
    if (m.metallicRoughnessTexture) {
      out.setMetallicRoughnessTexture(await texture(m.metallicRoughnessTexture, `${m.name} metallicRoughness`));
    }
    if (m.normalTexture) out.setNormalTexture(await texture(m.normalTexture, `${m.name} normal`));
    materials.set(m, out);
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
      .setAttribute(
        "NORMAL",
        doc.createAccessor().setType("VEC3").setArray(new Float32Array(partNormals(part))).setBuffer(buffer),
      );
    if (hasAttr(part.uvs, part, 2)) {
      prim.setAttribute("TEXCOORD_0", doc.createAccessor().setType("VEC2").setArray(new Float32Array(part.uvs)).setBuffer(buffer));
    }
    if (hasAttr(part.colors, part, 3)) {
      prim.setAttribute("COLOR_0", doc.createAccessor().setType("VEC3").setArray(new Float32Array(part.colors)).setBuffer(buffer));
    }
    const indices = n <= 0xffff ? new Uint16Array(part.indices) : new Uint32Array(part.indices);
    prim.setIndices(doc.createAccessor().setType("SCALAR").setArray(indices).setBuffer(buffer));
    if (part.material) prim.setMaterial(await material(part.material));
    const mesh = doc.createMesh(part.name).addPrimitive(prim);
    root.addChild(doc.createNode(part.name).setMesh(mesh));
  }
  return new NodeIO().writeBinary(doc);
}
