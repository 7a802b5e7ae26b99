/**
 * Fetches a result and turns it into a three.js scene graph. The common path, a GLB display
 * copy, is bundled with the viewer (GLTFLoader and the meshopt decoder); the loaders of the
 * other formats, and the Draco decoder's loader, are chunks of their own, imported when a file
 * that needs them is shown (e2e/viewer-chunks.spec.ts checks that none comes with a GLB's page).
 * All parse from bytes so the request can be cancelled and HTTP errors reported. Decoders come
 * from this app (public/draco, the bundled meshopt decoder): no CDN.
 */
import { Group, MeshStandardMaterial, Mesh, type Object3D } from "three";
import { MeshoptDecoder } from "three/examples/jsm/libs/meshopt_decoder.module.js";
import type { DRACOLoader } from "three/examples/jsm/loaders/DRACOLoader.js";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { collectResources, disposeResources } from "@/lib/viewer/dispose";
import { isZUp, type ModelFormat } from "@/lib/viewer/formats";
import { DRACO_EXTENSION, gltfExtensionsUsed } from "@/lib/viewer/gltf-extensions";
import { convertToStandardMaterials } from "@/lib/viewer/standard-materials";
import { widenUnalignedAttributes } from "@/lib/viewer/vertex-formats";

export interface LoadedModel {
  /** A group at the origin holding the model, free to be moved (the viewer centres it). */
  root: Group;
  /** Frees every geometry, material and texture and revokes the model's blob URLs. */
  dispose(): void;
}

// One Draco loader for the page, made when a file first needs it: it keeps its decoder workers
// warm between models.
let draco: Promise<DRACOLoader> | undefined;

function dracoLoader(): Promise<DRACOLoader> {
  draco ??= import("three/examples/jsm/loaders/DRACOLoader.js").then(
    ({ DRACOLoader }) => new DRACOLoader().setDecoderPath("/draco/"),
    (e: unknown) => {
      draco = undefined; // a failed chunk load is tried again by the next Draco file
      throw e;
    },
  );
  return draco;
}

async function gltfLoader(buffer: ArrayBuffer): Promise<GLTFLoader> {
  const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
  if (gltfExtensionsUsed(buffer).includes(DRACO_EXTENSION)) loader.setDRACOLoader(await dracoLoader());
  return loader;
}

async function fetchBytes(url: string, signal: AbortSignal): Promise<ArrayBuffer> {
  const res = await fetch(url, { signal });
  if (!res.ok) throw new Error(`the file could not be fetched (HTTP ${res.status})`);
  return res.arrayBuffer();
}

async function stlMesh(buffer: ArrayBuffer): Promise<Object3D> {
  const { STLLoader } = await import("three/examples/jsm/loaders/STLLoader.js");
  const geometry = new STLLoader().parse(buffer);
  // Binary STL may carry per-facet colours (the "COLOR=" header convention).
  const colored = (geometry as unknown as { hasColors?: boolean }).hasColors === true;
  return new Mesh(
    geometry,
    new MeshStandardMaterial({ color: colored ? 0xffffff : 0xc8c8c8, vertexColors: colored, roughness: 0.6, metalness: 0 }),
  );
}

async function parseUsd(buffer: ArrayBuffer): Promise<Object3D> {
  const { USDLoader } = await import("three/examples/jsm/loaders/USDLoader.js");
  // The group is built at once; onLoad waits for its textures.
  return new Promise((resolve, reject) => {
    new USDLoader().parse(buffer, "", resolve, reject);
  });
}

async function parse(format: ModelFormat, buffer: ArrayBuffer, blobUrls: string[]): Promise<Object3D> {
  switch (format) {
    case "glb": {
      const gltf = await (await gltfLoader(buffer)).parseAsync(buffer, "");
      return gltf.scene ?? gltf.scenes[0] ?? new Group();
    }
    case "obj": {
      const { OBJLoader } = await import("three/examples/jsm/loaders/OBJLoader.js");
      return new OBJLoader().parse(new TextDecoder().decode(buffer));
    }
    case "zip": {
      const { loadObjZip } = await import("./load-obj-zip");
      return loadObjZip(new Uint8Array(buffer), blobUrls);
    }
    case "stl":
      return stlMesh(buffer);
    case "fbx": {
      const { FBXLoader } = await import("three/examples/jsm/loaders/FBXLoader.js");
      return new FBXLoader().parse(buffer, "");
    }
    case "usdz":
      return parseUsd(buffer);
    case "3mf": {
      const { ThreeMFLoader } = await import("three/examples/jsm/loaders/3MFLoader.js");
      return new ThreeMFLoader().parse(buffer);
    }
  }
}

/** Loads the model at `url`; rejects with a readable reason. */
export async function loadModel(url: string, format: ModelFormat, signal: AbortSignal): Promise<LoadedModel> {
  mark("load", url);
  const buffer = await fetchBytes(url, signal);
  mark("fetched", url);
  const blobUrls: string[] = [];
  const revokeAll = () => blobUrls.splice(0).forEach((u) => URL.revokeObjectURL(u));
  let content: Object3D;
  try {
    content = await parse(format, buffer, blobUrls);
  } catch (e) {
    revokeAll();
    // Loaders throw raw JSON/DataView errors at bytes they cannot read: say what that means.
    if (e instanceof SyntaxError || e instanceof RangeError || e instanceof TypeError) {
      throw new Error(`the file is not a valid ${format === "zip" ? "OBJ archive" : format.toUpperCase()} file`);
    }
    throw e;
  }
  widenUnalignedAttributes(content);
  mark("parsed", url);
  convertToStandardMaterials(content);
  const upright = new Group();
  if (isZUp(format)) upright.rotation.x = -Math.PI / 2;
  upright.add(content);
  const root = new Group();
  root.name = "model";
  root.add(upright);
  // What the model holds now: a display mode may have swapped materials by dispose time.
  const loaded = collectResources(root);
  return {
    root,
    dispose() {
      root.removeFromParent();
      disposeResources(collectResources(root, loaded));
      revokeAll();
    },
  };
}

/** A User Timing mark (`x3d:<phase>`, the URL as detail): bench:studio prints the viewer's phases from them. */
export function mark(phase: string, url: string): void {
  performance.mark(`x3d:${phase}`, { detail: url });
}

/** A sentence-ending reason for a load failure (loaders prefix theirs with "THREE.XLoader:"). */
export function failureReason(e: unknown): string {
  const raw = e instanceof Error ? e.message : typeof e === "string" ? e : "";
  const msg = raw.replace(/^THREE\.\w+:\s*/, "").trim();
  return msg || "the file is not a valid model";
}
