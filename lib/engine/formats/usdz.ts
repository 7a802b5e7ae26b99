/**
 * USDZ writer: an uncompressed ZIP whose first entry is an ASCII layer (model.usda),
 * followed by PNG textures; every entry's data is 64-byte aligned.
 * metersPerUnit = 0.001 (millimetres), upAxis Y, one Mesh prim per part bound to a
 * UsdPreviewSurface material. USD texture coordinates have a bottom-left origin.
 */
import type { Material, MeshPart, RasterImage, Scene } from "@/lib/engine/mesh/types";
import { PngCache, assertValidScene, fmt, hasAttr, partNormals, safeName, uniqueNamer } from "./common";
import { TextWriter } from "./text-writer";
import { zipStoredAligned, type StoredEntry } from "./zip-store";

const indent = (lines: string[], by: string): string[] => lines.map((l) => (l === "" ? l : by + l.replace(/\n/g, `\n${by}`)));

const tuple = (...xs: number[]): string => `(${xs.map(fmt).join(", ")})`;

interface TextureRef {
  input: string;
  image: RasterImage;
  outputs: string;
  colorSpace: "sRGB" | "raw";
  scale?: number[];
  bias?: number[];
}

function materialPrim(path: string, name: string, m: Material, files: Map<RasterImage, string>, vertexColors: boolean): string[] {
  const [r, g, b, a] = m.baseColorFactor;
  const surface: string[] = ['uniform token info:id = "UsdPreviewSurface"'];
  const shaders: string[] = [];
  const refs: TextureRef[] = [];
  if (m.baseColorTexture) {
    refs.push({ input: "color3f inputs:diffuseColor", image: m.baseColorTexture, outputs: "rgb", colorSpace: "sRGB", scale: [r, g, b, a] });
    if (a < 1) surface.push(`float inputs:opacity.connect = <${path}/baseColorTexture.outputs:a>`);
  } else if (vertexColors) {
    surface.push(`color3f inputs:diffuseColor.connect = <${path}/displayColorReader.outputs:result>`);
    shaders.push(
      `def Shader "displayColorReader"`,
      "{",
      '    uniform token info:id = "UsdPrimvarReader_float3"',
      '    string inputs:varname = "displayColor"',
      `    float3 inputs:fallback = ${tuple(r, g, b)}`,
      "    float3 outputs:result",
      "}",
    );
  } else {
    surface.push(`color3f inputs:diffuseColor = ${tuple(r, g, b)}`);
  }
  if (!m.baseColorTexture && a < 1) surface.push(`float inputs:opacity = ${fmt(a)}`);
  if (m.metallicRoughnessTexture) {
    refs.push({
      input: "float inputs:roughness",
      image: m.metallicRoughnessTexture,
      outputs: "g",
      colorSpace: "raw",
      scale: [1, m.roughnessFactor, 1, 1],
    });
    refs.push({
      input: "float inputs:metallic",
      image: m.metallicRoughnessTexture,
      outputs: "b",
      colorSpace: "raw",
      scale: [1, 1, m.metallicFactor, 1],
    });
  } else {
    surface.push(`float inputs:metallic = ${fmt(m.metallicFactor)}`, `float inputs:roughness = ${fmt(m.roughnessFactor)}`);
  }
  if (m.normalTexture) {
    refs.push({
      input: "normal3f inputs:normal",
      image: m.normalTexture,
      outputs: "rgb",
      colorSpace: "raw",
      scale: [2, 2, 2, 1],
      bias: [-1, -1, -1, 0],
    });
  }
  if (refs.length > 0) {
    shaders.push(
      'def Shader "stReader"',
      "{",
      '    uniform token info:id = "UsdPrimvarReader_float2"',
      '    string inputs:varname = "st"',
      "    float2 inputs:fallback = (0, 0)",
      "    float2 outputs:result",
      "}",
    );
  }
  refs.forEach((ref, i) => {
    const shaderName = ref.outputs === "rgb" && ref.colorSpace === "sRGB" ? "baseColorTexture" : `texture${i}`;
    surface.push(`${ref.input}.connect = <${path}/${shaderName}.outputs:${ref.outputs}>`);
    shaders.push(
      `def Shader "${shaderName}"`,
      "{",
      '    uniform token info:id = "UsdUVTexture"',
      `    asset inputs:file = @${files.get(ref.image)}@`,
      `    float2 inputs:st.connect = <${path}/stReader.outputs:result>`,
      `    token inputs:sourceColorSpace = "${ref.colorSpace}"`,
      '    token inputs:wrapS = "repeat"',
      '    token inputs:wrapT = "repeat"',
      ...(ref.scale ? [`    float4 inputs:scale = ${tuple(...ref.scale)}`] : []),
      ...(ref.bias ? [`    float4 inputs:bias = ${tuple(...ref.bias)}`] : []),
      `    float${ref.outputs === "rgb" ? "3" : ""} outputs:${ref.outputs}`,
      ...(ref.outputs === "rgb" ? ["    float outputs:a"] : []),
      "}",
    );
  });
  surface.push("token outputs:surface");
  return [
    `def Material "${name}"`,
    "{",
    `    token outputs:surface.connect = <${path}/PreviewSurface.outputs:surface>`,
    ...indent(['def Shader "PreviewSurface"', "{", ...indent(surface, "    "), "}", ...shaders], "    "),
    "}",
  ];
}

/** `[(a, b, c), (d, e, f), ...]` for `size`-tuples of `a`, optionally remapped per element. */
function writeVec(w: TextWriter, a: ArrayLike<number>, size: number, map?: (value: number, k: number) => number): void {
  w.ch(91);
  for (let i = 0; i + size <= a.length; i += size) {
    if (i > 0) w.str(", ");
    w.ch(40);
    for (let k = 0; k < size; k++) {
      if (k > 0) w.str(", ");
      w.num(map ? map(a[i + k]!, k) : a[i + k]!);
    }
    w.ch(41);
  }
  w.ch(93);
}

/** A Mesh prim, indented for its place under /Root. */
function writeMeshPrim(w: TextWriter, name: string, part: MeshPart, materialPath: string | undefined): void {
  const p = part.positions;
  const min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const x = p[i + k]!;
      if (x < min[k]!) min[k] = x;
      if (x > max[k]!) max[k] = x;
    }
  }
  const tris = part.indices.length / 3;
  w.str(`    def Mesh "${name}"${materialPath ? ' (\n        prepend apiSchemas = ["MaterialBindingAPI"]\n    )' : ""}\n    {\n`);
  w.str("        uniform bool doubleSided = 0\n");
  if (p.length > 0) w.str(`        float3[] extent = [${tuple(...min)}, ${tuple(...max)}]\n`);
  w.str("        int[] faceVertexCounts = [");
  for (let t = 0; t < tris; t++) w.str(t > 0 ? ", 3" : "3");
  w.str("]\n        int[] faceVertexIndices = [");
  const idx = part.indices;
  for (let i = 0; i < idx.length; i++) {
    if (i > 0) w.str(", ");
    w.int(idx[i]!);
  }
  w.str("]\n");
  if (materialPath) w.str(`        rel material:binding = <${materialPath}>\n`);
  w.str("        normal3f[] normals = ");
  writeVec(w, partNormals(part), 3);
  w.str(' (\n            interpolation = "vertex"\n        )\n        point3f[] points = ');
  writeVec(w, p, 3);
  w.ch(10);
  if (hasAttr(part.uvs, part, 2)) {
    w.str("        texCoord2f[] primvars:st = ");
    writeVec(w, part.uvs, 2, (v, k) => (k === 1 ? 1 - v : v));
    w.str(' (\n            interpolation = "vertex"\n        )\n');
  }
  if (hasAttr(part.colors, part, 3)) {
    w.str("        color3f[] primvars:displayColor = ");
    writeVec(w, part.colors, 3);
    w.str(' (\n            interpolation = "vertex"\n        )\n');
  }
  w.str('        uniform token orientation = "rightHanded"\n        uniform token subdivisionScheme = "none"\n    }\n\n');
}

export async function writeUsdz(scene: Scene): Promise<Uint8Array> {
  assertValidScene(scene);
  const pngs = new PngCache();
  const files = new Map<RasterImage, string>();
  const pending: Array<{ name: string; data: Promise<Uint8Array> }> = [];
  for (const m of new Set(scene.parts.flatMap((p) => (p.material ? [p.material] : [])))) {
    for (const img of [m.baseColorTexture, m.metallicRoughnessTexture, m.normalTexture]) {
      if (!img || files.has(img)) continue;
      const file = `textures/texture_${files.size}.png`;
      files.set(img, file);
      pending.push({ name: file, data: pngs.get(img) }); // encodes while the layer is written
    }
  }
  const matName = uniqueNamer();
  const primName = uniqueNamer();
  const materials = new Map<string, { material: Material; path: string; name: string; colors: boolean }>();
  const materialIds = new Map<Material, number>();
  const w = new TextWriter();
  w.str(
    [
      "#usda 1.0",
      "(",
      "    customLayerData = {",
      '        string creator = "x3d"',
      "    }",
      '    defaultPrim = "Root"',
      "    metersPerUnit = 0.001",
      '    upAxis = "Y"',
      ")",
      "",
      'def Xform "Root"',
      "{",
      "",
    ].join("\n"),
  );
  for (const part of scene.parts) {
    let path: string | undefined;
    if (part.material) {
      const m = part.material;
      const colors = hasAttr(part.colors, part, 3) && !m.baseColorTexture;
      if (!materialIds.has(m)) materialIds.set(m, materialIds.size);
      const key = `${materialIds.get(m)}:${colors}`;
      let entry = materials.get(key);
      if (!entry) {
        const name = matName(safeName(m.name, "material"));
        entry = { material: m, name, colors, path: `/Root/Materials/${name}` };
        materials.set(key, entry);
      }
      path = entry.path;
    }
    writeMeshPrim(w, primName(safeName(part.name, "part")), part, path);
  }
  const materialLines: string[] = [];
  for (const { material, path, name, colors } of materials.values()) {
    materialLines.push(...materialPrim(path, name, material, files, colors), "");
  }
  w.str(['    def Scope "Materials"', "    {", ...indent(materialLines, "        "), "    }", "}", ""].join("\n"));
  const entries: StoredEntry[] = [{ name: "model.usda", data: w.finish() }];
  for (const { name, data } of pending) entries.push({ name, data: await data });
  return zipStoredAligned(entries);
}
