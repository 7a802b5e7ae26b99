/**
 * Reads a result file of any format the studio offers into a glTF-Transform Document.
 * GLB is read as is; the others go through the same three.js loaders the viewer uses
 * (components/viewer/load-model.ts), so the display copy shows what the viewer showed,
 * Z-up formats turned upright the same way.
 */
import { type Document, NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import { strFromU8, unzipSync } from "fflate";
import { MeshoptDecoder, MeshoptEncoder } from "meshoptimizer";
import { Group, LoadingManager, Mesh, MeshStandardMaterial, type Object3D } from "three";
import { FBXLoader } from "three/examples/jsm/loaders/FBXLoader.js";
import { MTLLoader } from "three/examples/jsm/loaders/MTLLoader.js";
import { OBJLoader } from "three/examples/jsm/loaders/OBJLoader.js";
import { STLLoader } from "three/examples/jsm/loaders/STLLoader.js";
import { ThreeMFLoader } from "three/examples/jsm/loaders/3MFLoader.js";
import { USDLoader } from "three/examples/jsm/loaders/USDLoader.js";
import { isZUp } from "@/lib/viewer/formats";
import { normalizeAssetPath, pickObjAndMtl, ZipAssetResolver } from "@/lib/viewer/zip-assets";
import { ImageCapture, withLoaderGlobals } from "./three-env";
import { ThreeToGltf } from "./three-to-gltf";

/** "zip" is an OBJ with its MTL and textures in a ZIP archive. */
export type SourceFormat = "glb" | "zip" | "obj" | "stl" | "fbx" | "usdz" | "3mf";

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
  return new Mesh(geometry, new MeshStandardMaterial({ color: colored ? 0xffffff : 0xc8c8c8, vertexColors: colored, roughness: 0.6, metalness: 0 }));
}

interface Loaded {
  root: Object3D;
  /** The images the scene's textures point at. */
  capture: ImageCapture;
}

function objZip(bytes: Uint8Array): Loaded {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes);
  } catch {
    throw new Error("the archive could not be opened");
  }
  const names = Object.keys(files);
  const text = (name: string): string => strFromU8(files[name] ?? new Uint8Array());
  const { obj, mtl } = pickObjAndMtl(names, text);
  const resolver = new ZipAssetResolver(names);
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
