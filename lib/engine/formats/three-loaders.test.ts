/**
 * Every mesh format loads back with three.js's own loader for it (three/examples/jsm/loaders),
 * with the scene's triangle count, part names where the format has them, the bounding box in
 * the format's units and axes, vertex colours and textures where the format (and the loader)
 * support them. Textures are checked by decoding the exact bytes each loader hands to its
 * image loader and comparing the pixels with the source image.
 */
import { unzipSync } from "fflate";
import {
  Box3,
  BufferGeometry,
  LoadingManager,
  Mesh,
  PropertyBinding,
  Vector3,
  type Material as ThreeMaterial,
  type Object3D,
  type Texture,
} from "three";
import { FBXLoader } from "three/examples/jsm/loaders/FBXLoader.js";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { MTLLoader } from "three/examples/jsm/loaders/MTLLoader.js";
import { OBJLoader } from "three/examples/jsm/loaders/OBJLoader.js";
import { STLLoader } from "three/examples/jsm/loaders/STLLoader.js";
import { ThreeMFLoader } from "three/examples/jsm/loaders/3MFLoader.js";
import { USDZLoader } from "three/examples/jsm/loaders/USDZLoader.js";
import { DOMParser as XmlDomParser } from "@xmldom/xmldom";
import { describe, expect, it } from "vitest";
import type { Material, MeshPart, RasterImage, Scene } from "@/lib/engine/mesh/types";
import { triangleCount } from "@/lib/engine/mesh/types";
import { writeMesh } from "./index";
import { type DecodedImage, failedImages, installBrowserShims, settleImages } from "./three-loader-shims.test-helpers";
import { cube, icosphere, texture4x4 } from "./fixtures.test-helpers";

installBrowserShims();

// ---------------------------------------------------------------------------------------------
// Scenes
// ---------------------------------------------------------------------------------------------

interface Case {
  label: string;
  scene: () => Scene;
  /** Part names as [original, sanitised to [A-Za-z0-9_] by the OBJ/FBX/USDZ writers]. */
  names: Array<[string, string]>;
}

/** Textured cube (uvs + normals + base colour texture) and a plain-coloured icosphere with vertex colours. */
function texturedAndColoured(): Scene {
  const c = cube(20, [0, 5, -3]);
  c.name = "textured cube";
  const s = icosphere(10, [40, 2, 7]);
  s.name = "coloured sphere";
  return { parts: [c, s] };
}

/** A solid with every PBR texture (metallic-roughness packed, normal) and a translucent factor. */
function pbr(): Scene {
  const c = cube(30, [-10, 20, 5]);
  c.name = "pbr cube";
  const mr = texture4x4();
  for (let i = 0; i < mr.data.length; i += 4) mr.data.set([0, 200, 60, 255], i);
  const normal = texture4x4();
  for (let i = 0; i < normal.data.length; i += 4) normal.data.set([128, 128, 255, 255], i);
  c.material = {
    name: "pbr metal",
    baseColorFactor: [1, 1, 1, 1],
    baseColorTexture: texture4x4(),
    metallicRoughnessTexture: mr,
    normalTexture: normal,
    metallicFactor: 1,
    roughnessFactor: 1,
  };
  return { parts: [c] };
}

/** Several named parts (names needing sanitising), shared and distinct plain materials. */
function multiPart(): Scene {
  const red: Material = { name: "red paint", baseColorFactor: [0.8, 0.05, 0.05, 1], metallicFactor: 0, roughnessFactor: 0.6 };
  const grey: Material = { name: "grey", baseColorFactor: [0.3, 0.3, 0.3, 1], metallicFactor: 0.9, roughnessFactor: 0.4 };
  const part = (name: string, size: number, center: [number, number, number], m: Material): MeshPart => ({
    ...cube(size, center, false),
    name,
    material: m,
  });
  const sphere = icosphere(6, [0, 45, 0]);
  sphere.name = "head";
  delete sphere.colors;
  sphere.material = red;
  return {
    parts: [
      part("base plate", 40, [0, -5, 0], grey),
      part("arm-left", 8, [-25, 20, 0], red),
      part("arm.right", 8, [25, 20, 0], red),
      sphere,
      part("body", 24, [0, 20, 0], grey),
    ],
  };
}

const CASES: Case[] = [
  {
    label: "textured + vertex-coloured",
    scene: texturedAndColoured,
    names: [
      ["textured cube", "textured_cube"],
      ["coloured sphere", "coloured_sphere"],
    ],
  },
  { label: "pbr", scene: pbr, names: [["pbr cube", "pbr_cube"]] },
  {
    label: "multi-part",
    scene: multiPart,
    names: [
      ["base plate", "base_plate"],
      ["arm-left", "arm_left"],
      ["arm.right", "arm_right"],
      ["head", "head"],
      ["body", "body"],
    ],
  },
];

// ---------------------------------------------------------------------------------------------
// Measuring what a loader returns
// ---------------------------------------------------------------------------------------------

function meshesOf(root: Object3D): Mesh[] {
  root.updateMatrixWorld(true);
  const out: Mesh[] = [];
  root.traverse((o) => {
    if (o instanceof Mesh) out.push(o);
  });
  return out;
}

const trianglesOf = (geo: BufferGeometry): number => (geo.index ? geo.index.count : geo.getAttribute("position").count) / 3;

function totalTriangles(root: Object3D): number {
  return meshesOf(root).reduce((n, m) => n + trianglesOf(m.geometry as BufferGeometry), 0);
}

/** Triangles per mesh name, meshes in traversal order (a name may hold several meshes). */
function trianglesByName(root: Object3D): Array<[string, number]> {
  const out = new Map<string, number>();
  for (const m of meshesOf(root)) out.set(m.name, (out.get(m.name) ?? 0) + trianglesOf(m.geometry as BufferGeometry));
  return [...out];
}

function worldBox(root: Object3D): Box3 {
  root.updateMatrixWorld(true);
  return new Box3().setFromObject(root, true);
}

/** The scene's bounding box (mm, Y up) mapped through a format's axis/unit convention. */
function expectedBox(scene: Scene, map: (x: number, y: number, z: number) => [number, number, number]): Box3 {
  const box = new Box3();
  const v = new Vector3();
  for (const p of scene.parts) {
    for (let i = 0; i < p.positions.length; i += 3)
      box.expandByPoint(v.fromArray(map(p.positions[i]!, p.positions[i + 1]!, p.positions[i + 2]!)));
  }
  return box;
}

function expectBox(actual: Box3, expected: Box3, label: string): void {
  const tol = expected.getSize(new Vector3()).length() * 1e-5;
  for (const k of ["min", "max"] as const) {
    for (const axis of ["x", "y", "z"] as const) {
      expect(
        Math.abs(actual[k][axis] - expected[k][axis]),
        `${label} box.${k}.${axis}: ${actual[k][axis]} vs ${expected[k][axis]}`,
      ).toBeLessThanOrEqual(tol);
    }
  }
}

const MM = (x: number, y: number, z: number): [number, number, number] => [x, y, z];
const METRES = (x: number, y: number, z: number): [number, number, number] => [x / 1000, y / 1000, z / 1000];
/** STL and 3MF are Z up: the scene's (x, y, z) is stored as (x, -z, y). */
const Z_UP = (x: number, y: number, z: number): [number, number, number] => [x, -z, y];

function decodedOf(tex: Texture | null | undefined): DecodedImage | undefined {
  const img = tex?.image as Partial<DecodedImage> | undefined;
  return img?.raster ? (img as DecodedImage) : undefined;
}

/** The texture decoded by the loader holds exactly the source image's pixels. */
function expectTexture(tex: Texture | null | undefined, source: RasterImage, label: string): void {
  const img = decodedOf(tex);
  expect(img, `${label}: texture missing or not loaded`).toBeDefined();
  expect([img!.width, img!.height], label).toEqual([source.width, source.height]);
  expect(Array.from(img!.raster.data), label).toEqual(Array.from(source.data));
}

const arrayBufferOf = (b: Uint8Array): ArrayBuffer => b.slice().buffer;

const materialsOf = (m: Mesh): ThreeMaterial[] => (Array.isArray(m.material) ? m.material : [m.material]);

/** The mesh of a given name (the first when a loader splits a part by material). */
function named(root: Object3D, name: string): Mesh {
  const m = meshesOf(root).find((x) => x.name === name);
  if (!m)
    throw new Error(
      `no mesh named ${JSON.stringify(name)} in [${meshesOf(root)
        .map((x) => x.name)
        .join(", ")}]`,
    );
  return m;
}

type MapKey = "map" | "normalMap" | "roughnessMap" | "metalnessMap";
const mapOf = (mesh: Mesh, key: MapKey): Texture | null | undefined =>
  (materialsOf(mesh)[0] as unknown as Partial<Record<MapKey, Texture | null>>)[key];

/** Every 3MF object is closed and consistently oriented: each directed edge once, its reverse once. */
function expectClosedObjects(model: string, count: number): void {
  const doc = new XmlDomParser().parseFromString(model, "application/xml");
  const objects = doc.getElementsByTagName("object");
  expect(objects.length).toBe(count);
  for (let o = 0; o < objects.length; o++) {
    const object = objects.item(o)!;
    const tris = object.getElementsByTagName("triangle");
    const nVerts = object.getElementsByTagName("vertex").length;
    const edges = new Map<number, number>();
    for (let t = 0; t < tris.length; t++) {
      const tri = tris.item(t)!;
      const [a, b, c] = ["v1", "v2", "v3"].map((k) => Number(tri.getAttribute(k))) as [number, number, number];
      expect(new Set([a, b, c]).size, `object ${o} triangle ${t} is degenerate`).toBe(3);
      for (const [u, v] of [
        [a, b],
        [b, c],
        [c, a],
      ] as const)
        edges.set(u * nVerts + v, (edges.get(u * nVerts + v) ?? 0) + 1);
    }
    for (const [key, n] of edges) {
      const u = Math.floor(key / nVerts),
        v = key % nVerts;
      expect(n, `object ${o}: edge ${u}->${v} used ${n} times`).toBe(1);
      expect(edges.get(v * nVerts + u), `object ${o}: edge ${u}->${v} is open`).toBe(1);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Loading each format
// ---------------------------------------------------------------------------------------------

async function loadGlb(bytes: Uint8Array): Promise<Object3D> {
  const gltf = await new GLTFLoader().parseAsync(arrayBufferOf(bytes), "");
  await settleImages();
  return gltf.scene;
}

interface ObjLoaded {
  root: Object3D;
  files: Record<string, Uint8Array>;
}

/** Unzips when needed and loads OBJ + MTL, resolving texture file names to the zip's entries. */
async function loadObj(out: { bytes: Uint8Array; ext: string }): Promise<ObjLoaded> {
  const files: Record<string, Uint8Array> = out.ext === "zip" ? unzipSync(out.bytes) : { "model.obj": out.bytes };
  const text = (name: string): string => new TextDecoder().decode(files[name]);
  const objName = Object.keys(files).find((f) => f.endsWith(".obj"));
  expect(objName).toBeDefined();
  const obj = text(objName!);
  const urls = new Map<string, string>();
  const manager = new LoadingManager();
  manager.setURLModifier((url) => {
    const file = files[url];
    if (!file) return url; // unresolvable: the image shim reports an error
    let blobUrl = urls.get(url);
    if (!blobUrl) {
      blobUrl = URL.createObjectURL(new Blob([file.slice()], { type: "image/png" }));
      urls.set(url, blobUrl);
    }
    return blobUrl;
  });
  const loader = new OBJLoader(manager);
  const mtllib = /^mtllib (.+)$/m.exec(obj)?.[1];
  if (mtllib !== undefined) {
    expect(Object.keys(files), "mtllib names a file in the archive").toContain(mtllib);
    const creator = new MTLLoader(manager).parse(text(mtllib), "");
    creator.preload();
    loader.setMaterials(creator);
  }
  const root = loader.parse(obj);
  await settleImages();
  for (const u of urls.values()) URL.revokeObjectURL(u);
  return { root, files };
}

async function loadStl(bytes: Uint8Array): Promise<Object3D> {
  return new Mesh(new STLLoader().parse(arrayBufferOf(bytes)));
}

async function loadFbx(bytes: Uint8Array): Promise<Object3D> {
  const root = new FBXLoader().parse(arrayBufferOf(bytes), "");
  await settleImages();
  return root;
}

async function loadUsdz(bytes: Uint8Array): Promise<Object3D> {
  const root = await new Promise<Object3D>((resolve, reject) => {
    new USDZLoader().parse(arrayBufferOf(bytes), "", resolve, reject);
  });
  await settleImages();
  return root;
}

async function load3mf(bytes: Uint8Array): Promise<Object3D> {
  const root = new ThreeMFLoader().parse(arrayBufferOf(bytes));
  await settleImages();
  return root;
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe.each(CASES)("three.js loaders: $label", ({ scene: makeScene, names }) => {
  const scene = makeScene();
  const tris = triangleCount(scene);
  const partTris = scene.parts.map((p) => p.indices.length / 3);
  const textured = scene.parts.find((p) => p.material?.baseColorTexture);
  const coloured = scene.parts.find((p) => p.colors);

  it("GLB: GLTFLoader", async () => {
    const root = await loadGlb((await writeMesh(scene, 2)).bytes);
    expect(totalTriangles(root)).toBe(tris);
    // GLTFLoader sanitises node names the way three's PropertyBinding does.
    expect(trianglesByName(root)).toEqual(names.map(([n], i) => [PropertyBinding.sanitizeNodeName(n), partTris[i]]));
    expectBox(worldBox(root), expectedBox(scene, METRES), "glb (metres)");
    if (textured) {
      const mesh = named(root, PropertyBinding.sanitizeNodeName(textured.name));
      const m = textured.material!;
      expectTexture(mapOf(mesh, "map"), m.baseColorTexture!, "glb map");
      expect((mesh.geometry as BufferGeometry).getAttribute("uv")).toBeDefined();
      if (m.metallicRoughnessTexture) {
        expectTexture(mapOf(mesh, "roughnessMap"), m.metallicRoughnessTexture, "glb roughnessMap");
        expectTexture(mapOf(mesh, "metalnessMap"), m.metallicRoughnessTexture, "glb metalnessMap");
      }
      if (m.normalTexture) expectTexture(mapOf(mesh, "normalMap"), m.normalTexture, "glb normalMap");
    }
    if (coloured) {
      const mesh = named(root, PropertyBinding.sanitizeNodeName(coloured.name));
      expect((mesh.geometry as BufferGeometry).getAttribute("color")?.count).toBe(coloured.positions.length / 3);
      expect((materialsOf(mesh)[0] as ThreeMaterial & { vertexColors: boolean }).vertexColors).toBe(true);
    }
  });

  it("OBJ: OBJLoader + MTLLoader", async () => {
    const out = await writeMesh(scene, 1);
    const { root, files } = await loadObj(out);
    const obj = new TextDecoder().decode(files["model.obj"]);
    expect(totalTriangles(root)).toBe(tris);
    expect(trianglesByName(root)).toEqual(names.map(([, safe], i) => [safe, partTris[i]]));
    expectBox(worldBox(root), expectedBox(scene, MM), "obj (mm)");
    // More than one file (OBJ + MTL [+ textures]) always travels as a ZIP, and OBJ references MTL.
    if (out.ext === "zip") {
      expect(Object.keys(files).length).toBeGreaterThan(1);
      expect(obj).toMatch(/^mtllib model\.mtl$/m);
      const mtl = new TextDecoder().decode(files["model.mtl"]);
      for (const [, file] of mtl.matchAll(/^map_\w+ (.+)$/gm)) expect(Object.keys(files), `MTL references ${file}`).toContain(file);
    }
    if (textured) {
      expect(out.ext).toBe("zip");
      const mtl = new TextDecoder().decode(files["model.mtl"]);
      expect(mtl).toMatch(/^map_Kd \S+\.png$/m);
      expectTexture(
        mapOf(named(root, names[scene.parts.indexOf(textured)]![1]), "map"),
        textured.material!.baseColorTexture!,
        "obj map_Kd",
      );
    }
    if (coloured) {
      const mesh = named(root, names[scene.parts.indexOf(coloured)]![1]);
      expect((mesh.geometry as BufferGeometry).getAttribute("color")).toBeDefined();
    }
    expect(failedImages).toEqual([]);
  });

  it("STL: STLLoader (binary, Z up, mm)", async () => {
    const root = await loadStl((await writeMesh(scene, 3)).bytes);
    expect(totalTriangles(root)).toBe(tris);
    expectBox(worldBox(root), expectedBox(scene, Z_UP), "stl (mm, Z up)");
  });

  it("FBX: FBXLoader", async () => {
    const root = await loadFbx((await writeMesh(scene, 4)).bytes);
    expect(totalTriangles(root)).toBe(tris);
    expect(trianglesByName(root)).toEqual(names.map(([, safe], i) => [safe, partTris[i]]));
    // UnitScaleFactor 0.1 (cm per unit): vertex data stays in millimetres, Y up.
    expect(root.userData.unitScaleFactor).toBe(0.1);
    expectBox(worldBox(root), expectedBox(scene, MM), "fbx (mm)");
    // Normals (written per control point) reach every de-indexed corner of every part.
    scene.parts.forEach((part, i) => {
      const normal = (named(root, names[i]![1]).geometry as BufferGeometry).getAttribute("normal");
      expect(normal.count).toBe(part.indices.length);
      part.indices.forEach((v, c) => {
        expect([normal.getX(c), normal.getY(c), normal.getZ(c)]).toEqual(
          Array.from(part.normals!.subarray(v * 3, v * 3 + 3)).map((x) => expect.closeTo(x, 5)),
        );
      });
    });
    if (textured) {
      const mesh = named(root, names[scene.parts.indexOf(textured)]![1]);
      expectTexture(mapOf(mesh, "map"), textured.material!.baseColorTexture!, "fbx map");
      // FBX's Phong material has a normal map slot but none for metallic-roughness.
      if (textured.material!.normalTexture) expectTexture(mapOf(mesh, "normalMap"), textured.material!.normalTexture, "fbx normalMap");
    }
    if (coloured) {
      const mesh = named(root, names[scene.parts.indexOf(coloured)]![1]);
      expect((mesh.geometry as BufferGeometry).getAttribute("color")?.count).toBe(partTris[scene.parts.indexOf(coloured)]! * 3);
    }
    expect(failedImages).toEqual([]);
  });

  it("USDZ: USDZLoader", async () => {
    const root = await loadUsdz((await writeMesh(scene, 5)).bytes);
    expect(totalTriangles(root)).toBe(tris);
    expect(trianglesByName(root)).toEqual(names.map(([, safe], i) => [safe, partTris[i]]));
    // metersPerUnit 0.001: the loader scales the root to metres.
    expectBox(worldBox(root), expectedBox(scene, METRES), "usdz (metres)");
    if (textured) {
      const mesh = named(root, names[scene.parts.indexOf(textured)]![1]);
      const m = textured.material!;
      expectTexture(mapOf(mesh, "map"), m.baseColorTexture!, "usdz map");
      if (m.metallicRoughnessTexture) {
        expectTexture(mapOf(mesh, "roughnessMap"), m.metallicRoughnessTexture, "usdz roughnessMap");
        expectTexture(mapOf(mesh, "metalnessMap"), m.metallicRoughnessTexture, "usdz metalnessMap");
      }
      if (m.normalTexture) expectTexture(mapOf(mesh, "normalMap"), m.normalTexture, "usdz normalMap");
    }
    expect(failedImages).toEqual([]);
  });

  it("3MF: ThreeMFLoader (mm, Z up)", async () => {
    const bytes = (await writeMesh(scene, 6)).bytes;
    const model = new TextDecoder().decode(unzipSync(bytes)["3D/3dmodel.model"]);
    expect(model).toMatch(/<model [^>]*unit="millimeter"/);
    expectClosedObjects(model, scene.parts.length);
    const root = await load3mf(bytes);
    expect(totalTriangles(root)).toBe(tris);
    expect(trianglesByName(root)).toEqual(names.map(([n], i) => [n, partTris[i]]));
    expectBox(worldBox(root), expectedBox(scene, Z_UP), "3mf (mm, Z up)");
    if (textured) expectTexture(mapOf(named(root, textured.name), "map"), textured.material!.baseColorTexture!, "3mf texture2d");
    if (coloured) expect((named(root, coloured.name).geometry as BufferGeometry).getAttribute("color")).toBeDefined();
    expect(failedImages).toEqual([]);
  });
});
