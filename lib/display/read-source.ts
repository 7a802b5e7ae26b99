/**
 * Reads a result file of any format the studio offers into a glTF-Transform Document.
 * GLB is read as is; the others go through the same three.js loaders the viewer uses
 * (components/viewer/load-model.ts), so the display copy shows what the viewer showed,
 * Z-up formats turned upright the same way.
 */
import { open, readFile } from "node:fs/promises";
import { type Document, NodeIO, type GLTF } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import { MeshoptDecoder, MeshoptEncoder } from "meshoptimizer";
import { Group, LoadingManager, Mesh, MeshStandardMaterial, type Object3D } from "three";
import { FBXLoader } from "three/examples/jsm/loaders/FBXLoader.js";
import { MTLLoader } from "three/examples/jsm/loaders/MTLLoader.js";
import { OBJLoader } from "three/examples/jsm/loaders/OBJLoader.js";
import { STLLoader } from "three/examples/jsm/loaders/STLLoader.js";
import { ThreeMFLoader } from "three/examples/jsm/loaders/3MFLoader.js";
import { USDLoader } from "three/examples/jsm/loaders/USDLoader.js";
import { isZUp } from "@/lib/viewer/formats";
import type { ModelFormat } from "@/lib/viewer/formats";
import { normalizeAssetPath, openObjZip } from "@/lib/viewer/zip-assets";
import { ImageCapture, withLoaderGlobals } from "./three-env";
import { ThreeToGltf } from "./three-to-gltf";

/** "zip" is an OBJ with its MTL and textures in a ZIP archive. */
/** The mesh formats a display copy is made from: the ones the viewer draws natively. */
export type SourceFormat = ModelFormat;

/** NodeIO for reading sources and writing copies: every extension, meshopt both ways. */
export async function createIO(): Promise<NodeIO> {
  await Promise.all([MeshoptDecoder.ready, MeshoptEncoder.ready]);
  return new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
    "meshopt.decoder": MeshoptDecoder,
    "meshopt.encoder": MeshoptEncoder,
  });
}

const arrayBufferOf = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

function stlMesh(bytes: Uint8Array): Object3D {
  const geometry = new STLLoader().parse(arrayBufferOf(bytes));
  // As the viewer: per-facet colours (the "COLOR=" header convention) when present, else grey.
  const colored = (geometry as unknown as { hasColors?: boolean }).hasColors === true;
  return new Mesh(
    geometry,
    new MeshStandardMaterial({ color: colored ? 0xffffff : 0xc8c8c8, vertexColors: colored, roughness: 0.6, metalness: 0 }),
  );
}

interface Loaded {
  root: Object3D;
  /** The images the scene's textures point at. */
  capture: ImageCapture;
}

function objZip(bytes: Uint8Array): Loaded {
  const { files, text, obj, mtl, resolver } = openObjZip(bytes);
  // The MTL's texture names are looked up in the archive (relative paths, other case, ...).
  const capture = new ImageCapture((url) => {
    const entry = resolver.resolve(url);
    return entry ? files[entry] : undefined;
  });
  const root = withLoaderGlobals(capture, () => {
    const manager = new LoadingManager();
    const loader = new OBJLoader(manager);
    if (mtl) {
      const dir = normalizeAssetPath(mtl).split("/").slice(0, -1).join("/");
      const materials = new MTLLoader(manager).parse(text(mtl), dir ? `${dir}/` : "");
      materials.preload();
      loader.setMaterials(materials);
    }
    return loader.parse(text(obj));
  });
  return { root, capture };
}

function loadThree(bytes: Uint8Array, format: Exclude<SourceFormat, "glb">): Loaded {
  const capture = new ImageCapture();
  switch (format) {
    case "stl":
      return { root: stlMesh(bytes), capture };
    case "obj":
      return { root: new OBJLoader().parse(new TextDecoder().decode(bytes)), capture };
    case "zip":
      return objZip(bytes);
    case "fbx":
      return { root: withLoaderGlobals(capture, () => new FBXLoader().parse(arrayBufferOf(bytes), "")), capture };
    case "usdz":
      // The group is built synchronously; its textures finish loading into `capture`.
      return { root: withLoaderGlobals(capture, () => new USDLoader().parse(arrayBufferOf(bytes), "")), capture };
    case "3mf":
      return { root: withLoaderGlobals(capture, () => new ThreeMFLoader().parse(arrayBufferOf(bytes))), capture };
  }
}

// Extensions that neither move vertex data out of plain buffer views nor point at buffer views themselves.
const PLAIN_EXTENSION = /^(KHR_materials_|KHR_texture_|EXT_texture_|KHR_mesh_quantization$|KHR_lights_punctual$)/;

const COMPONENT_ARRAYS: Record<
  number,
  | Uint8ArrayConstructor
  | Int8ArrayConstructor
  | Uint16ArrayConstructor
  | Int16ArrayConstructor
  | Uint32ArrayConstructor
  | Float32ArrayConstructor
> = {
  5120: Int8Array,
  5121: Uint8Array,
  5122: Int16Array,
  5123: Uint16Array,
  5125: Uint32Array,
  5126: Float32Array,
};
const TYPE_SIZES: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

async function readAt(file: Awaited<ReturnType<typeof open>>, into: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < into.byteLength;) {
    const { bytesRead } = await file.read(into, done, into.byteLength - done, position + done);
    if (bytesRead === 0) throw new Error("the file is not a valid GLB file");
    done += bytesRead;
  }
}

/**
 * Reads a GLB file into a Document holding each vertex and index array once: NodeIO's
 * readBinary copies every accessor out of the whole file's bytes, so a 450 MB GLB would
 * briefly take 900 MB. Here each plain accessor (tightly packed, not sparse) is read from
 * the file straight into its own array and only the rest of the binary chunk (images,
 * anything else) goes through NodeIO. Files this does not cover (external buffers,
 * compressed or unknown extensions) are read with readBinary.
 */
export async function readGlbFile(input: string): Promise<Document> {
  const io = await createIO();
  const file = await open(input, "r");
  try {
    const head = new Uint8Array(20);
    await readAt(file, head, 0);
    const view = new DataView(head.buffer);
    const size = (await file.stat()).size;
    const jsonLength = view.getUint32(12, true);
    const plainGlb =
      view.getUint32(0, true) === 0x46546c67 &&
      view.getUint32(4, true) === 2 &&
      view.getUint32(16, true) === 0x4e4f534a &&
      20 + jsonLength <= size;
    if (plainGlb) {
      const jsonBytes = new Uint8Array(jsonLength);
      await readAt(file, jsonBytes, 20);
      const json = JSON.parse(new TextDecoder().decode(jsonBytes)) as GLTF.IGLTF;
      let binStart = 20 + jsonLength,
        binLength = 0;
      if (binStart + 8 <= size) {
        const chunk = new Uint8Array(8);
        await readAt(file, chunk, binStart);
        const chunkView = new DataView(chunk.buffer);
        if (chunkView.getUint32(4, true) === 0x004e4942) binLength = Math.min(chunkView.getUint32(0, true), size - binStart - 8);
        binStart += 8;
      }
      const buffers = json.buffers ?? [];
      const simple =
        (json.extensionsUsed ?? []).every((e) => PLAIN_EXTENSION.test(e)) &&
        buffers.length <= 1 &&
        buffers.every((b) => b.uri === undefined);
      if (simple) return await readPlainGlb(io, file, json, binStart, binLength);
    }
  } finally {
    await file.close();
  }
  return io.readBinary(await readFile(input));
}

interface OwnAccessor {
  index: number;
  /** Its JSON, whose bufferView is dropped once the array is read. */
  json: GLTF.IAccessor;
  /** Offset of its first element in the binary chunk. */
  start: number;
  stride: number;
  elementBytes: number;
  bytes: Uint8Array;
  typed: ArrayBufferView;
}

const CHUNK = 16 * 2 ** 20;

/** Reads interleaved accessors of one buffer view a chunk of rows at a time, each into its own array. */
async function readInterleaved(
  file: Awaited<ReturnType<typeof open>>,
  list: OwnAccessor[],
  viewStart: number,
  viewLength: number,
  stride: number,
  binStart: number,
): Promise<void> {
  const rows = Math.max(1, Math.floor(CHUNK / stride));
  const chunk = new Uint8Array(rows * stride);
  const words = stride % 4 === 0 ? new Uint32Array(chunk.buffer) : null;
  const count = Math.max(...list.map((a) => a.bytes.byteLength / a.elementBytes));
  for (let row = 0; row < count; row += rows) {
    const n = Math.min(rows, count - row);
    const length = Math.min(n * stride, viewLength - row * stride);
    await readAt(file, chunk.subarray(0, length), binStart + viewStart + row * stride);
    for (const a of list) {
      const offset = a.start - viewStart,
        eb = a.elementBytes;
      const m = Math.min(n, a.bytes.byteLength / eb - row);
      if (words && offset % 4 === 0 && eb % 4 === 0) {
        const dst = new Uint32Array(a.bytes.buffer, row * eb, m * (eb / 4));
        const ws = stride / 4,
          we = eb / 4,
          wo = offset / 4;
        // Reads stay within the rows just read; `?? 0` stores what a read out of range would have.
        for (let i = 0, o = 0; i < m; i++) for (let k = 0; k < we; k++) dst[o++] = words[i * ws + wo + k] ?? 0;
      } else {
        for (let i = 0, o = row * eb; i < m; i++) for (let k = 0; k < eb; k++) a.bytes[o++] = chunk[i * stride + offset + k] ?? 0;
      }
    }
  }
}

async function readPlainGlb(
  io: NodeIO,
  file: Awaited<ReturnType<typeof open>>,
  json: GLTF.IGLTF,
  binStart: number,
  binLength: number,
): Promise<Document> {
  const views = json.bufferViews ?? [];
  const accessors = json.accessors ?? [];
  // Buffer views an image or an accessor read by NodeIO uses: those are still read into the binary chunk.
  const sharedViews = new Set<number>();
  for (const image of json.images ?? []) if (image.bufferView !== undefined) sharedViews.add(image.bufferView);
  const byView = new Map<number, { view: GLTF.IBufferView; list: OwnAccessor[] }>();
  accessors.forEach((a, index) => {
    if (a.bufferView === undefined) return;
    const bv = views[a.bufferView];
    const Typed = COMPONENT_ARRAYS[a.componentType];
    const size = TYPE_SIZES[a.type];
    const elementBytes = Typed && size ? size * Typed.BYTES_PER_ELEMENT : 0;
    const stride = bv?.byteStride ?? elementBytes;
    const start = (bv?.byteOffset ?? 0) + (a.byteOffset ?? 0);
    const fits =
      bv &&
      elementBytes > 0 &&
      a.count > 0 &&
      !a.sparse &&
      !bv.extensions &&
      (bv.buffer ?? 0) === 0 &&
      stride >= elementBytes &&
      (a.byteOffset ?? 0) + elementBytes <= stride &&
      start + (a.count - 1) * stride + elementBytes <= Math.min(binLength, (bv.byteOffset ?? 0) + bv.byteLength);
    if (!fits || !Typed || !size) {
      sharedViews.add(a.bufferView);
      return;
    }
    const typed = new Typed(a.count * size);
    const entry = byView.get(a.bufferView) ?? { view: bv, list: [] };
    entry.list.push({ index, json: a, start, stride, elementBytes, bytes: new Uint8Array(typed.buffer), typed });
    byView.set(a.bufferView, entry);
  });
  for (const [v, { view: bv, list }] of byView) {
    if (sharedViews.has(v)) continue; // read by NodeIO with the rest
    if (bv.byteStride === undefined || list.every((a) => a.stride === a.elementBytes)) {
      for (const a of list) await readAt(file, a.bytes, binStart + a.start);
    } else {
      await readInterleaved(file, list, bv.byteOffset ?? 0, bv.byteLength, bv.byteStride, binStart);
    }
    for (const a of list) delete a.json.bufferView; // NodeIO creates it empty; its array is set below
  }
  // The rest of the binary chunk: a zeroed buffer (pages never written take no memory)
  // with every buffer view NodeIO still reads put in at its place.
  const bin = new Uint8Array(binLength);
  for (const [index, bv] of views.entries()) {
    if (byView.has(index) && !sharedViews.has(index)) continue;
    const start = bv.byteOffset ?? 0;
    const length = Math.min(bv.byteLength, binLength - start);
    if (length > 0) await readAt(file, bin.subarray(start, start + length), binStart + start);
  }
  const doc = await io.readJSON({ json, resources: binLength > 0 ? { "@glb.bin": bin } : {} });
  const buffer = doc.getRoot().listBuffers()[0];
  const list = doc.getRoot().listAccessors();
  for (const [v, { list: own }] of byView) {
    if (sharedViews.has(v)) continue;
    for (const a of own) {
      const accessor = list[a.index];
      if (!accessor) throw new Error(`glTF accessor ${a.index} is missing after reading the document`);
      accessor.setArray(a.typed as Float32Array<ArrayBuffer>).setBuffer(buffer ?? null);
    }
  }
  return doc;
}
/** Reads `bytes` of the given format into a Document (Y up, as the viewer shows it). */
export async function readSource(bytes: Uint8Array, format: SourceFormat): Promise<Document> {
  if (format === "glb") return (await createIO()).readBinary(bytes);
  let loaded: Loaded;
  try {
    loaded = loadThree(bytes, format);
  } catch (e) {
    // Loaders throw raw JSON/DataView errors at bytes they cannot read (as the viewer says).
    if (e instanceof SyntaxError || e instanceof RangeError || e instanceof TypeError) {
      throw new Error(`the file is not a valid ${format === "zip" ? "OBJ archive" : format.toUpperCase()} file`);
    }
    throw e;
  }
  const { root, capture } = loaded;
  await capture.settle();
  let top: Object3D = root;
  if (isZUp(format)) {
    top = new Group();
    top.rotation.x = -Math.PI / 2; // the viewer's own turn (load-model.ts)
    top.add(root);
  }
  return new ThreeToGltf(capture).convert(top);
}
