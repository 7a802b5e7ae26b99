/**
 * ASCII FBX 7.4 writer (loads in three.js FBXLoader, Autodesk FBX SDK based tools).
 * Units: UnitScaleFactor 0.1 (1 unit = 1 mm), Y up. One Geometry + Model per part,
 * a Phong Material per scene material, base colour texture embedded as a Video (base64).
 * Colours are written in sRGB (FBX convention); uvs use a bottom-left origin.
 */
import type { Material, MeshPart, RasterImage, Scene } from "@/lib/engine/mesh/types";
import { PngCache, assertValidScene, fmt, hasAttr, linearToSrgb, partNormals, safeName, textEncoder, uniqueNamer } from "./common";

type Line = string;

function arrayNode(indent: string, name: string, values: ArrayLike<number>, format: (x: number) => string = fmt): Line[] {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) parts[i] = format(values[i]!);
  return [`${indent}${name}: *${values.length} {`, `${indent}\ta: ${parts.join(",")}`, `${indent}} `];
}

const int = (x: number): string => String(x);

function geometryLines(id: number, name: string, part: MeshPart, hasMaterial: boolean): Line[] {
  const idx = part.indices;
  const pvi = new Int32Array(idx.length);
  for (let i = 0; i < idx.length; i++) pvi[i] = i % 3 === 2 ? ~idx[i]! : idx[i]!;
  const src = partNormals(part);
  const normals = new Float32Array(idx.length * 3);
  for (let i = 0; i < idx.length; i++) normals.set(src.subarray(idx[i]! * 3, idx[i]! * 3 + 3), i * 3);
  const layers = ["LayerElementNormal"];
  const out: Line[] = [
    `\tGeometry: ${id}, "Geometry::${name}", "Mesh" {`,
    ...arrayNode("\t\t", "Vertices", part.positions),
    ...arrayNode("\t\t", "PolygonVertexIndex", pvi, int),
    "\t\tGeometryVersion: 124",
    "\t\tLayerElementNormal: 0 {",
    "\t\t\tVersion: 101",
    '\t\t\tName: ""',
    '\t\t\tMappingInformationType: "ByPolygonVertex"',
    '\t\t\tReferenceInformationType: "Direct"',
    ...arrayNode("\t\t\t", "Normals", normals),
    "\t\t}",
  ];
  if (hasAttr(part.colors, part, 3)) {
    const c = part.colors;
    const rgba = new Float32Array((c.length / 3) * 4);
    for (let v = 0; v < c.length / 3; v++) {
      rgba.set([linearToSrgb(c[v * 3]!), linearToSrgb(c[v * 3 + 1]!), linearToSrgb(c[v * 3 + 2]!), 1], v * 4);
    }
    layers.push("LayerElementColor");
    out.push(
      "\t\tLayerElementColor: 0 {",
      "\t\t\tVersion: 101",
      '\t\t\tName: "Col"',
      '\t\t\tMappingInformationType: "ByPolygonVertex"',
      '\t\t\tReferenceInformationType: "IndexToDirect"',
      ...arrayNode("\t\t\t", "Colors", rgba),
      ...arrayNode("\t\t\t", "ColorIndex", idx, int),
      "\t\t}",
    );
  }
  if (hasAttr(part.uvs, part, 2)) {
    const uv = new Float32Array(part.uvs);
    for (let i = 1; i < uv.length; i += 2) uv[i] = 1 - uv[i]!;
    layers.push("LayerElementUV");
    out.push(
      "\t\tLayerElementUV: 0 {",
      "\t\t\tVersion: 101",
      '\t\t\tName: "UVMap"',
      '\t\t\tMappingInformationType: "ByPolygonVertex"',
      '\t\t\tReferenceInformationType: "IndexToDirect"',
      ...arrayNode("\t\t\t", "UV", uv),
      ...arrayNode("\t\t\t", "UVIndex", idx, int),
      "\t\t}",
    );
  }
  if (hasMaterial) {
    layers.push("LayerElementMaterial");
    out.push(
      "\t\tLayerElementMaterial: 0 {",
      "\t\t\tVersion: 101",
      '\t\t\tName: ""',
      '\t\t\tMappingInformationType: "AllSame"',
      '\t\t\tReferenceInformationType: "IndexToDirect"',
      ...arrayNode("\t\t\t", "Materials", [0], int),
      "\t\t}",
    );
  }
  out.push("\t\tLayer: 0 {", "\t\t\tVersion: 100");
  for (const type of layers) out.push("\t\t\tLayerElement:  {", `\t\t\t\tType: "${type}"`, "\t\t\t\tTypedIndex: 0", "\t\t\t}");
  out.push("\t\t}", "\t}");
  return out;
}

function materialLines(id: number, name: string, m: Material): Line[] {
  const [r, g, b, a] = m.baseColorFactor;
  const rgb = [r, g, b].map((c) => fmt(linearToSrgb(c))).join(",");
  return [
    `\tMaterial: ${id}, "Material::${name}", "" {`,
    "\t\tVersion: 102",
    '\t\tShadingModel: "phong"',
    "\t\tMultiLayer: 0",
    "\t\tProperties70:  {",
    '\t\t\tP: "ShadingModel", "KString", "", "", "Phong"',
    `\t\t\tP: "DiffuseColor", "Color", "", "A",${rgb}`,
    '\t\t\tP: "DiffuseFactor", "Number", "", "A",1',
    '\t\t\tP: "SpecularColor", "Color", "", "A",0,0,0',
    `\t\t\tP: "Shininess", "Number", "", "A",${fmt(Math.max(0, (1 - m.roughnessFactor) * 100))}`,
    `\t\t\tP: "Opacity", "double", "Number", "",${fmt(a)}`,
    `\t\t\tP: "TransparencyFactor", "Number", "", "A",${fmt(1 - a)}`,
    "\t\t}",
    "\t}",
  ];
}

function textureLines(videoId: number, texId: number, name: string, file: string, png: Uint8Array): Line[] {
  return [
    `\tVideo: ${videoId}, "Video::${name}", "Clip" {`,
    '\t\tType: "Clip"',
    "\t\tProperties70:  {",
    `\t\t\tP: "Path", "KString", "XRefUrl", "", "${file}"`,
    "\t\t}",
    "\t\tUseMipMap: 0",
    `\t\tFilename: "${file}"`,
    `\t\tRelativeFilename: "${file}"`,
    "\t\tContent: ,",
    `\t\t\t"${Buffer.from(png).toString("base64")}"`,
    "\t}",
    `\tTexture: ${texId}, "Texture::${name}", "" {`,
    '\t\tType: "TextureVideoClip"',
    "\t\tVersion: 202",
    `\t\tTextureName: "Texture::${name}"`,
    `\t\tMedia: "Video::${name}"`,
    `\t\tFileName: "${file}"`,
    `\t\tRelativeFilename: "${file}"`,
    "\t\tModelUVTranslation: 0,0",
    "\t\tModelUVScaling: 1,1",
    '\t\tTexture_Alpha_Source: "None"',
    "\t\tCropping: 0,0,0,0",
    "\t}",
  ];
}

function header(counts: Record<string, number>): Line[] {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const prop = (name: string, type: string, sub: string, v: number): string => `\t\tP: "${name}", "${type}", "${sub}", "",${v}`;
  const out: Line[] = [
    "; FBX 7.4.0 project file",
    "; Created by x3d",
    "; ----------------------------------------------------",
    "",
    "FBXHeaderExtension:  {",
    "\tFBXHeaderVersion: 1003",
    "\tFBXVersion: 7400",
    "\tCreationTimeStamp:  {",
    "\t\tVersion: 1000",
    ...["Year: 2020", "Month: 1", "Day: 1", "Hour: 0", "Minute: 0", "Second: 0", "Millisecond: 0"].map((s) => `\t\t${s}`),
    "\t}",
    '\tCreator: "x3d"',
    "}",
    "GlobalSettings:  {",
    "\tVersion: 1000",
    "\tProperties70:  {",
    prop("UpAxis", "int", "Integer", 1),
    prop("UpAxisSign", "int", "Integer", 1),
    prop("FrontAxis", "int", "Integer", 2),
    prop("FrontAxisSign", "int", "Integer", 1),
    prop("CoordAxis", "int", "Integer", 0),
    prop("CoordAxisSign", "int", "Integer", 1),
    prop("OriginalUpAxis", "int", "Integer", 1),
    prop("OriginalUpAxisSign", "int", "Integer", 1),
    prop("UnitScaleFactor", "double", "Number", 0.1),
    prop("OriginalUnitScaleFactor", "double", "Number", 0.1),
    "\t}",
    "}",
    "",
    "Documents:  {",
    "\tCount: 1",
    '\tDocument: 1000000000, "", "Scene" {',
    "\t\tRootNode: 0",
    "\t}",
    "}",
    "",
    "References:  {",
    "}",
    "",
    "Definitions:  {",
    "\tVersion: 100",
    `\tCount: ${total + 1}`,
    '\tObjectType: "GlobalSettings" {',
    "\t\tCount: 1",
    "\t}",
  ];
  for (const [type, count] of Object.entries(counts)) {
    if (count > 0) out.push(`\tObjectType: "${type}" {`, `\t\tCount: ${count}`, "\t}");
  }
  out.push("}", "");
  return out;
}

export async function writeFbx(scene: Scene): Promise<Uint8Array> {
  assertValidScene(scene);
  let nextId = 100000;
  const newId = (): number => nextId++;
  const objects: Line[] = [];
  const connections: Line[] = [];
  const materialIds = new Map<Material, number>();
  const textureIds = new Map<RasterImage, number>();
  const pngs = new PngCache();
  const name = uniqueNamer();
  const counts = { Model: 0, Geometry: 0, Material: 0, Texture: 0, Video: 0 };

  for (const part of scene.parts) {
    const partName = name(safeName(part.name, "part"));
    const geoId = newId(), modelId = newId();
    objects.push(...geometryLines(geoId, partName, part, part.material !== undefined));
    objects.push(
      `\tModel: ${modelId}, "Model::${partName}", "Mesh" {`,
      "\t\tVersion: 232",
      "\t\tProperties70:  {",
      '\t\t\tP: "InheritType", "enum", "", "",1',
      '\t\t\tP: "DefaultAttributeIndex", "int", "Integer", "",0',
      "\t\t}",
      "\t\tShading: T",
      '\t\tCulling: "CullingOff"',
      "\t}",
    );
    counts.Geometry++;
    counts.Model++;
    connections.push(`\tC: "OO",${modelId},0`, `\tC: "OO",${geoId},${modelId}`);
    const m = part.material;
    if (!m) continue;
    let matId = materialIds.get(m);
    if (matId === undefined) {
      matId = newId();
      materialIds.set(m, matId);
      const matName = name(safeName(m.name, "material"));
      objects.push(...materialLines(matId, matName, m));
      counts.Material++;
      const img = m.baseColorTexture;
      if (img) {
        let texId = textureIds.get(img);
        if (texId === undefined) {
          const videoId = newId();
          texId = newId();
          textureIds.set(img, texId);
          const file = `texture_${textureIds.size - 1}.png`;
          objects.push(...textureLines(videoId, texId, `${matName}_baseColor`, file, await pngs.get(img)));
          counts.Texture++;
          counts.Video++;
          connections.push(`\tC: "OO",${videoId},${texId}`);
        }
        connections.push(`\tC: "OP",${texId},${matId}, "DiffuseColor"`);
      }
    }
    connections.push(`\tC: "OO",${matId},${modelId}`);
  }

  const lines = [
    ...header(counts),
    "Objects:  {",
    ...objects,
    "}",
    "",
    "Connections:  {",
    ...connections,
    "}",
    "",
  ];
  return textEncoder.encode(lines.join("\n"));
}
