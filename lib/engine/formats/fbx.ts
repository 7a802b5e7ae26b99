/**
 * Binary FBX 7.4 writer (imports in Blender, which reads binary FBX only, three.js FBXLoader
 * and Autodesk FBX SDK based tools). Units: UnitScaleFactor 0.1 (1 unit = 1 mm), Y up. One
 * Geometry + Model per part, a Phong Material per scene material, base colour and normal map
 * textures embedded as Videos (raw PNG bytes). Colours are written in sRGB (FBX convention); uvs use a
 * bottom-left origin. The byte layout lives in ./fbx-binary.
 */
import type { Material, MeshPart, RasterImage, Scene } from "@/lib/engine/mesh/types";
import { PngCache, assertValidScene, hasAttr, linearToSrgb, partNormals, safeName, uniqueNamer } from "./common";
import {
  FBX_CREATION_TIME,
  FBX_FILE_ID,
  type FbxNode,
  type FbxProp,
  bool,
  encodeFbxBinary,
  float64,
  float64Array,
  int32,
  int32Array,
  int64,
  nameClass,
  node,
  raw,
  string,
} from "./fbx-binary";

const FBX_VERSION = 7400;

/** Properties70 "P" entry: name, type, subtype, flags, values. */
const P = (name: string, type: string, sub: string, flags: string, ...values: FbxProp[]): FbxNode =>
  node("P", [string(name), string(type), string(sub), string(flags), ...values]);

const single = (name: string, value: FbxProp): FbxNode => node(name, [value]);

function layerElement(type: string, name: string, mapping: string, reference: string, data: FbxNode[]): FbxNode {
  return node(
    type,
    [int32(0)],
    [
      single("Version", int32(101)),
      single("Name", string(name)),
      single("MappingInformationType", string(mapping)),
      single("ReferenceInformationType", string(reference)),
      ...data,
    ],
  );
}

function geometryNode(id: number, name: string, part: MeshPart, hasMaterial: boolean): FbxNode {
  const idx = part.indices;
  const pvi = new Int32Array(idx.length);
  for (let i = 0; i < idx.length; i++) pvi[i] = i % 3 === 2 ? ~idx[i]! : idx[i]!;
  // Normals per control point (ByVertice): a sixth of ByPolygonVertex's size, same result
  // since every vertex has one normal.
  const layers = ["LayerElementNormal"];
  const children: FbxNode[] = [
    single("Vertices", float64Array(part.positions)),
    single("PolygonVertexIndex", int32Array(pvi)),
    single("GeometryVersion", int32(124)),
    layerElement("LayerElementNormal", "", "ByVertice", "Direct", [single("Normals", float64Array(partNormals(part)))]),
  ];
  if (hasAttr(part.colors, part, 3)) {
    const c = part.colors;
    const rgba = new Float64Array((c.length / 3) * 4);
    for (let v = 0; v < c.length / 3; v++) {
      rgba[v * 4] = linearToSrgb(c[v * 3]!);
      rgba[v * 4 + 1] = linearToSrgb(c[v * 3 + 1]!);
      rgba[v * 4 + 2] = linearToSrgb(c[v * 3 + 2]!);
      rgba[v * 4 + 3] = 1;
    }
    layers.push("LayerElementColor");
    children.push(
      layerElement("LayerElementColor", "Col", "ByPolygonVertex", "IndexToDirect", [
        single("Colors", float64Array(rgba)),
        single("ColorIndex", int32Array(idx)),
      ]),
    );
  }
  if (hasAttr(part.uvs, part, 2)) {
    const uv = new Float64Array(part.uvs);
    for (let i = 1; i < uv.length; i += 2) uv[i] = 1 - uv[i]!;
    layers.push("LayerElementUV");
    children.push(
      layerElement("LayerElementUV", "UVMap", "ByPolygonVertex", "IndexToDirect", [
        single("UV", float64Array(uv)),
        single("UVIndex", int32Array(idx)),
      ]),
    );
  }
  if (hasMaterial) {
    layers.push("LayerElementMaterial");
    children.push(layerElement("LayerElementMaterial", "", "AllSame", "IndexToDirect", [single("Materials", int32Array([0]))]));
  }
  children.push(
    node(
      "Layer",
      [int32(0)],
      [
        single("Version", int32(100)),
        ...layers.map((type) => node("LayerElement", [], [single("Type", string(type)), single("TypedIndex", int32(0))])),
      ],
    ),
  );
  return node("Geometry", [int64(id), nameClass(name, "Geometry"), string("Mesh")], children);
}

function modelNode(id: number, name: string): FbxNode {
  return node(
    "Model",
    [int64(id), nameClass(name, "Model"), string("Mesh")],
    [
      single("Version", int32(232)),
      node("Properties70", [], [P("InheritType", "enum", "", "", int32(1)), P("DefaultAttributeIndex", "int", "Integer", "", int32(0))]),
      single("Shading", bool(true)),
      single("Culling", string("CullingOff")),
    ],
  );
}

function materialNode(id: number, name: string, m: Material): FbxNode {
  const [r, g, b, a] = m.baseColorFactor;
  const rgb = [r, g, b].map((c) => float64(linearToSrgb(c)));
  return node(
    "Material",
    [int64(id), nameClass(name, "Material"), string("")],
    [
      single("Version", int32(102)),
      single("ShadingModel", string("phong")),
      single("MultiLayer", int32(0)),
      node(
        "Properties70",
        [],
        [
          P("ShadingModel", "KString", "", "", string("Phong")),
          P("DiffuseColor", "Color", "", "A", ...rgb),
          P("DiffuseFactor", "Number", "", "A", float64(1)),
          P("SpecularColor", "Color", "", "A", float64(0), float64(0), float64(0)),
          P("Shininess", "Number", "", "A", float64(Math.max(0, (1 - m.roughnessFactor) * 100))),
          P("Opacity", "double", "Number", "", float64(a)),
          P("TransparencyFactor", "Number", "", "A", float64(1 - a)),
        ],
      ),
    ],
  );
}

function textureNodes(videoId: number, texId: number, name: string, file: string, png: Uint8Array): FbxNode[] {
  return [
    node(
      "Video",
      [int64(videoId), nameClass(name, "Video"), string("Clip")],
      [
        single("Type", string("Clip")),
        node("Properties70", [], [P("Path", "KString", "XRefUrl", "", string(file))]),
        single("UseMipMap", int32(0)),
        single("Filename", string(file)),
        single("RelativeFilename", string(file)),
        single("Content", raw(png)),
      ],
    ),
    node(
      "Texture",
      [int64(texId), nameClass(name, "Texture"), string("")],
      [
        single("Type", string("TextureVideoClip")),
        single("Version", int32(202)),
        single("TextureName", nameClass(name, "Texture")),
        single("Media", nameClass(name, "Video")),
        single("FileName", string(file)),
        single("RelativeFilename", string(file)),
        node("ModelUVTranslation", [float64(0), float64(0)]),
        node("ModelUVScaling", [float64(1), float64(1)]),
        single("Texture_Alpha_Source", string("None")),
        node("Cropping", [int32(0), int32(0), int32(0), int32(0)]),
      ],
    ),
  ];
}

function headerNodes(counts: Record<string, number>): FbxNode[] {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const intP = (name: string, v: number): FbxNode => P(name, "int", "Integer", "", int32(v));
  const numP = (name: string, v: number): FbxNode => P(name, "double", "Number", "", float64(v));
  const stamp: Array<[string, number]> = [
    ["Version", 1000],
    ["Year", 1970],
    ["Month", 1],
    ["Day", 1],
    ["Hour", 10],
    ["Minute", 0],
    ["Second", 0],
    ["Millisecond", 0],
  ];
  const objectTypes = Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([type, count]) => node("ObjectType", [string(type)], [single("Count", int32(count))]));
  return [
    node(
      "FBXHeaderExtension",
      [],
      [
        single("FBXHeaderVersion", int32(1003)),
        single("FBXVersion", int32(FBX_VERSION)),
        single("EncryptionType", int32(0)),
        node(
          "CreationTimeStamp",
          [],
          stamp.map(([k, v]) => single(k, int32(v))),
        ),
        single("Creator", string("x3d")),
      ],
    ),
    // Blender writes these fixed values: the FBX SDK checks FileId/footer against CreationTime.
    single("FileId", raw(FBX_FILE_ID)),
    single("CreationTime", string(FBX_CREATION_TIME)),
    single("Creator", string("x3d")),
    node(
      "GlobalSettings",
      [],
      [
        single("Version", int32(1000)),
        node(
          "Properties70",
          [],
          [
            intP("UpAxis", 1),
            intP("UpAxisSign", 1),
            intP("FrontAxis", 2),
            intP("FrontAxisSign", 1),
            intP("CoordAxis", 0),
            intP("CoordAxisSign", 1),
            intP("OriginalUpAxis", 1),
            intP("OriginalUpAxisSign", 1),
            numP("UnitScaleFactor", 0.1),
            numP("OriginalUnitScaleFactor", 0.1),
          ],
        ),
      ],
    ),
    node(
      "Documents",
      [],
      [single("Count", int32(1)), node("Document", [int64(1000000000), string(""), string("Scene")], [single("RootNode", int64(0))])],
    ),
    node("References"),
    node(
      "Definitions",
      [],
      [
        single("Version", int32(100)),
        single("Count", int32(total + 1)),
        node("ObjectType", [string("GlobalSettings")], [single("Count", int32(1))]),
        ...objectTypes,
      ],
    ),
  ];
}

export async function writeFbx(scene: Scene): Promise<Uint8Array> {
  assertValidScene(scene);
  let nextId = 100000;
  const newId = (): number => nextId++;
  const objects: FbxNode[] = [];
  const connections: FbxNode[] = [];
  const oo = (child: number, parent: number): FbxNode => node("C", [string("OO"), int64(child), int64(parent)]);
  const materialIds = new Map<Material, number>();
  const textureIds = new Map<RasterImage, number>();
  const pngs = new PngCache();
  const name = uniqueNamer();
  const counts = { Model: 0, Geometry: 0, Material: 0, Texture: 0, Video: 0 };
  // Start the PNG encodes (sharp's threads) before building the geometry arrays.
  for (const part of scene.parts) {
    for (const img of [part.material?.baseColorTexture, part.material?.normalTexture]) if (img) void pngs.get(img);
  }

  for (const part of scene.parts) {
    const partName = name(safeName(part.name, "part"));
    const geoId = newId(),
      modelId = newId();
    objects.push(geometryNode(geoId, partName, part, part.material !== undefined), modelNode(modelId, partName));
    counts.Geometry++;
    counts.Model++;
    connections.push(oo(modelId, 0), oo(geoId, modelId));
    const m = part.material;
    if (!m) continue;
    let matId = materialIds.get(m);
    if (matId === undefined) {
      matId = newId();
      materialIds.set(m, matId);
      const matName = name(safeName(m.name, "material"));
      objects.push(materialNode(matId, matName, m));
      counts.Material++;
      // Base colour and normal map (FBX's Phong material has no metallic-roughness slot).
      const maps: Array<[RasterImage | undefined, string, string]> = [
        [m.baseColorTexture, "DiffuseColor", "baseColor"],
        [m.normalTexture, "NormalMap", "normal"],
      ];
      for (const [img, slot, suffix] of maps) {
        if (!img) continue;
        let texId = textureIds.get(img);
        if (texId === undefined) {
          const videoId = newId();
          texId = newId();
          textureIds.set(img, texId);
          const file = `texture_${textureIds.size - 1}.png`;
          objects.push(...textureNodes(videoId, texId, `${matName}_${suffix}`, file, await pngs.get(img)));
          counts.Texture++;
          counts.Video++;
          connections.push(oo(videoId, texId));
        }
        connections.push(node("C", [string("OP"), int64(texId), int64(matId), string(slot)]));
      }
    }
    connections.push(oo(matId, modelId));
  }

  return encodeFbxBinary([...headerNodes(counts), node("Objects", [], objects), node("Connections", [], connections)], FBX_VERSION);
}
