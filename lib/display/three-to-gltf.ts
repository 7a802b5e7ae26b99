/**
 * Turns the scene a three.js loader produced into a glTF-Transform Document, keeping what
 * the viewer draws: the node tree (names, transforms), triangle meshes (positions, normals,
 * uvs, vertex colours, one primitive per material group) and materials as the viewer sees
 * them (Phong/Lambert through the viewer's own conversion to MeshStandardMaterial).
 */
import {
  Document,
  type Accessor,
  type Buffer as GltfBuffer,
  type Material as GltfMaterial,
  type Node as GltfNode,
  type Texture as GltfTexture,
  type TextureInfo,
} from "@gltf-transform/core";
import {
  BufferGeometry,
  ClampToEdgeWrapping,
  DoubleSide,
  MeshStandardMaterial,
  MirroredRepeatWrapping,
  type BufferAttribute,
  type InterleavedBufferAttribute,
  type Material,
  type Mesh,
  type MeshLambertMaterial,
  type MeshPhongMaterial,
  type Object3D,
  type Texture,
} from "three";
import { toStandardMaterial } from "@/lib/viewer/standard-materials";
import type { ImageCapture } from "./three-env";
import { encodedImage, packMetalRough } from "./images";

type Attribute = BufferAttribute | InterleavedBufferAttribute;

// glTF sampler wrap modes (WebGL enums).
const GL_REPEAT = 10497,
  GL_CLAMP = 33071,
  GL_MIRROR = 33648;
const wrapOf = (mode: number): 10497 | 33071 | 33648 =>
  mode === ClampToEdgeWrapping ? GL_CLAMP : mode === MirroredRepeatWrapping ? GL_MIRROR : GL_REPEAT;

function standardOf(m: Material): MeshStandardMaterial {
  if ((m as MeshStandardMaterial).isMeshStandardMaterial) return m as MeshStandardMaterial;
  if ((m as MeshPhongMaterial).isMeshPhongMaterial || (m as MeshLambertMaterial).isMeshLambertMaterial) {
    return toStandardMaterial(m as MeshPhongMaterial | MeshLambertMaterial);
  }
  // Other kinds (basic, normal, ...) keep colour, texture and transparency, like an untextured matte.
  const any = m as Partial<MeshStandardMaterial>;
  return new MeshStandardMaterial({
    name: m.name,
    color: any.color,
    map: any.map ?? null,
    transparent: m.transparent,
    opacity: m.opacity,
    side: m.side,
    vertexColors: m.vertexColors,
    roughness: 1,
    metalness: 0,
  });
}

/** Copies an attribute into a Float32Array of `size` components per item (denormalising). */
function floats(attr: Attribute, size: 2 | 3 | 4): Float32Array<ArrayBuffer> {
  const n = attr.count;
  if (size === attr.itemSize && !("isInterleavedBufferAttribute" in attr) && attr.array instanceof Float32Array) {
    return new Float32Array(attr.array.subarray(0, n * size));
  }
  const out = new Float32Array(n * size);
  const getters = [attr.getX, attr.getY, attr.getZ, attr.getW].slice(0, size).map((f) => f.bind(attr));
  getters.forEach((get, k) => {
    for (let i = 0; i < n; i++) out[i * size + k] = get(i);
  });
  return out;
}

/** Unit normals (glTF requires them); zero or broken ones take the geometry's computed normal. */
function unitNormals(geometry: BufferGeometry, attr: Attribute): Float32Array<ArrayBuffer> {
  const out = floats(attr, 3);
  let fallback: Float32Array | undefined;
  // out.length is a multiple of 3, so every read is in range; `?? NaN` is what a read out of
  // range would give.
  const at = (j: number): number => out[j] ?? NaN;
  for (let i = 0; i < out.length; i += 3) {
    let len = Math.hypot(at(i), at(i + 1), at(i + 2));
    if (!(len > 1e-12 && Number.isFinite(len))) {
      if (!fallback) {
        const copy = new BufferGeometry().setAttribute("position", geometry.getAttribute("position")).setIndex(geometry.getIndex());
        copy.computeVertexNormals();
        fallback = floats(copy.getAttribute("normal") as BufferAttribute, 3);
      }
      out.set(fallback.subarray(i, i + 3), i);
      len = Math.hypot(at(i), at(i + 1), at(i + 2));
      if (!(len > 1e-12 && Number.isFinite(len))) [out[i], out[i + 1], out[i + 2], len] = [0, 1, 0, 1];
    }
    for (let k = 0; k < 3; k++) out[i + k] = at(i + k) / len;
  }
  return out;
}

/** Builds a Document from a loaded three.js scene; textures come from `capture`. */
export class ThreeToGltf {
  readonly doc = new Document();
  private readonly buffer: GltfBuffer;
  private readonly textures = new Map<unknown, Promise<GltfTexture | null>>();
  private readonly materials = new Map<string, Promise<GltfMaterial>>();
  private readonly vertexData = new Map<BufferGeometry, Map<string, Accessor>>();

  constructor(private readonly capture: ImageCapture) {
    this.buffer = this.doc.createBuffer();
  }

  /** Converts `root` (and its subtree) into the document's default scene. */
  async convert(root: Object3D): Promise<Document> {
    const scene = this.doc.createScene("Scene");
    this.doc.getRoot().setDefaultScene(scene);
    scene.addChild(await this.node(root));
    return this.doc;
  }

  private async node(object: Object3D): Promise<GltfNode> {
    const node = this.doc
      .createNode(object.name)
      .setTranslation(object.position.toArray())
      .setRotation(object.quaternion.toArray() as [number, number, number, number])
      .setScale(object.scale.toArray());
    if ((object as Mesh).isMesh) await this.mesh(object as Mesh, node);
    for (const child of object.children) node.addChild(await this.node(child));
    return node;
  }

  private async mesh(object: Mesh, node: GltfNode): Promise<void> {
    const geometry = object.geometry;
    const position = geometry.getAttribute("position");
    if (!position || position.count === 0) return;
    const index = geometry.getIndex();
    const total = index ? index.count : position.count;
    // Like three: a material array draws the geometry's groups, a single material draws it all.
    const draws = Array.isArray(object.material)
      ? geometry.groups.map((g) => ({
          start: g.start,
          count: Math.min(g.count, total - g.start),
          material: (object.material as Material[])[g.materialIndex ?? 0],
        }))
      : [{ start: 0, count: total, material: object.material }];
    const mesh = this.doc.createMesh(object.name);
    const hasUv = geometry.getAttribute("uv") !== undefined;
    for (const draw of draws) {
      const count = draw.count - (draw.count % 3);
      if (!draw.material || count <= 0) continue;
      const indices = new Uint32Array(count);
      for (let i = 0; i < count; i++) indices[i] = index ? index.getX(draw.start + i) : draw.start + i;
      const prim = this.doc.createPrimitive().setIndices(this.accessor(indices, "SCALAR"));
      for (const [semantic, accessor] of this.attributes(geometry, draw.material.vertexColors)) prim.setAttribute(semantic, accessor);
      prim.setMaterial(await this.material(draw.material, hasUv));
      mesh.addPrimitive(prim);
    }
    if (mesh.listPrimitives().length > 0) node.setMesh(mesh);
    else mesh.dispose();
  }

  private accessor(array: Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>, type: "SCALAR" | "VEC2" | "VEC3" | "VEC4"): Accessor {
    return this.doc.createAccessor().setType(type).setArray(array).setBuffer(this.buffer);
  }

  /** The geometry's vertex attributes as accessors, made once and shared by its primitives. */
  private attributes(geometry: BufferGeometry, withColors: boolean): Array<[string, Accessor]> {
    let made = this.vertexData.get(geometry);
    if (!made) {
      made = new Map();
      made.set("POSITION", this.accessor(floats(geometry.getAttribute("position"), 3), "VEC3"));
      const normal = geometry.getAttribute("normal");
      if (normal) made.set("NORMAL", this.accessor(unitNormals(geometry, normal), "VEC3"));
      const uv = geometry.getAttribute("uv");
      if (uv) {
        // three's loaders flip images (flipY), so their v runs bottom-up; glTF's runs top-down.
        const uvs = floats(uv, 2);
        for (let i = 1; i < uvs.length; i += 2) uvs[i] = 1 - (uvs[i] ?? NaN); // in range: i < uvs.length
        made.set("TEXCOORD_0", this.accessor(uvs, "VEC2"));
      }
      const color = geometry.getAttribute("color");
      if (color) {
        const size = color.itemSize >= 4 ? 4 : 3;
        const colors = floats(color, size);
        for (let i = 0; i < colors.length; i++) {
          const c = colors[i] ?? NaN; // in range: i < colors.length
          colors[i] = c > 0 ? Math.min(c, 1) : 0; // glTF: 0..1, NaN -> 0
        }
        made.set("COLOR_0", this.accessor(colors, size === 4 ? "VEC4" : "VEC3"));
      }
      this.vertexData.set(geometry, made);
    }
    // three applies vertex colours only when the material asks for them; glTF always does.
    return [...made].filter(([semantic]) => withColors || semantic !== "COLOR_0");
  }

  private material(source: Material, hasUv: boolean): Promise<GltfMaterial> {
    const key = `${source.uuid}:${hasUv}`;
    let made = this.materials.get(key);
    if (!made) {
      made = this.buildMaterial(standardOf(source), hasUv);
      this.materials.set(key, made);
    }
    return made;
  }

  private async buildMaterial(m: MeshStandardMaterial, hasUv: boolean): Promise<GltfMaterial> {
    const out = this.doc
      .createMaterial(m.name)
      .setBaseColorFactor([m.color.r, m.color.g, m.color.b, m.transparent ? m.opacity : 1])
      .setMetallicFactor(m.metalness)
      .setRoughnessFactor(m.roughness)
      .setDoubleSided(m.side === DoubleSide)
      .setAlphaMode(m.transparent ? "BLEND" : m.alphaTest > 0 ? "MASK" : "OPAQUE");
    if (m.alphaTest > 0 && !m.transparent) out.setAlphaCutoff(m.alphaTest);
    const e = m.emissiveIntensity;
    out.setEmissiveFactor([Math.min(1, m.emissive.r * e), Math.min(1, m.emissive.g * e), Math.min(1, m.emissive.b * e)]);
    if (!hasUv) return out; // a texture without TEXCOORD_0 is invalid glTF
    const bind = async (
      t: Texture | null,
      set: (tex: GltfTexture) => void,
      info: () => TextureInfo | null,
      image = t?.image,
    ): Promise<void> => {
      const tex = t ? await this.texture(image) : null;
      if (!t || !tex) return;
      set(tex);
      info()?.setWrapS(wrapOf(t.wrapS)).setWrapT(wrapOf(t.wrapT));
    };
    await bind(
      m.map,
      (t) => out.setBaseColorTexture(t),
      () => out.getBaseColorTextureInfo(),
    );
    await bind(
      m.emissiveMap,
      (t) => out.setEmissiveTexture(t),
      () => out.getEmissiveTextureInfo(),
    );
    await bind(
      m.normalMap,
      (t) => out.setNormalTexture(t).setNormalScale(m.normalScale.x),
      () => out.getNormalTextureInfo(),
    );
    const roughness = m.roughnessMap ? this.capture.bytesOf(m.roughnessMap.image) : undefined;
    const metalness = m.metalnessMap ? this.capture.bytesOf(m.metalnessMap.image) : undefined;
    const map = m.roughnessMap ?? m.metalnessMap;
    if (map && (roughness || metalness)) {
      // three reads roughness from G and metalness from B, as glTF does: one image when both
      // maps are the same picture, else the two channels packed into one.
      const same = roughness && metalness && Buffer.compare(roughness, metalness) === 0;
      const packed = same ? roughness : await packMetalRough(roughness, metalness);
      await bind(
        map,
        (t) => out.setMetallicRoughnessTexture(t),
        () => out.getMetallicRoughnessTextureInfo(),
        packed,
      );
    }
    return out;
  }

  /** One glTF texture per distinct image (the loaded image object, or packed bytes). */
  private texture(image: unknown): Promise<GltfTexture | null> {
    let made = this.textures.get(image);
    if (!made) {
      made = (async () => {
        const encoded = await encodedImage(image instanceof Uint8Array ? image : this.capture.bytesOf(image));
        return encoded ? this.doc.createTexture().setImage(encoded.bytes).setMimeType(encoded.mimeType) : null;
      })();
      this.textures.set(image, made);
    }
    return made;
  }
}
