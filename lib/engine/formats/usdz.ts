/**
 * USDZ writer: an uncompressed ZIP whose first entry is an ASCII layer (model.usda),
 * followed by PNG textures; every entry's data is 64-byte aligned.
 * metersPerUnit = 0.001 (millimetres), upAxis Y, one Mesh prim per part bound to a
 * UsdPreviewSurface material. USD texture coordinates have a bottom-left origin.
 */
import type { Material, MeshPart, RasterImage, Scene } from "@/lib/engine/mesh/types";
import { PngCache, assertValidScene, fmt, hasAttr, partNormals, safeName, textEncoder, uniqueNamer } from "./common";
import { zipStoredAligned, type StoredEntry } from "./zip-store";

const vec = (a: ArrayLike<number>, size: number): string => {
  const out: string[] = [];
  for (let i = 0; i + size <= a.length; i += size) {
    const c: string[] = [];
    for (let k = 0; k < size; k++) c.push(fmt(a[i + k]!));
    out.push(`(${c.join(", ")})`);
  }
  return `[${out.join(", ")}]`;
};

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
      `def Shader "displayColorReader"`, "{",
      '    uniform token info:id = "UsdPrimvarReader_float3"',
      '    string inputs:varname = "displayColor"',
      `    float3 inputs:fallback = ${tuple(r, g, b)}`,
      "    float3 outputs:result", "}",
    );
  } else {
    surface.push(`color3f inputs:diffuseColor = ${tuple(r, g, b)}`);
  }
  if (!m.baseColorTexture && a < 1) surface.push(`float inputs:opacity = ${fmt(a)}`);
  if (m.metallicRoughnessTexture) {
    refs.push({ input: "float inputs:roughness", image: m.metallicRoughnessTexture, outputs: "g", colorSpace: "raw", scale: [1, m.roughnessFactor, 1, 1] });
    refs.push({ input: "float inputs:metallic", image: m.metallicRoughnessTexture, outputs: "b", colorSpace: "raw", scale: [1, 1, m.metallicFactor, 1] });
  } else {
    surface.push(`float inputs:metallic = ${fmt(m.metallicFactor)}`, `float inputs:roughness = ${fmt(m.roughnessFactor)}`);
  }
  if (m.normalTexture) {
    refs.push({ input: "normal3f inputs:normal", image: m.normalTexture, outputs: "rgb", colorSpace: "raw", scale: [2, 2, 2, 1], bias: [-1, -1, -1, 0] });
  }
  if (refs.length > 0) {
    shaders.push(
      'def Shader "stReader"', "{",
      '    uniform token info:id = "UsdPrimvarReader_float2"',
      '    string inputs:varname = "st"',
      "    float2 inputs:fallback = (0, 0)",
      "    float2 outputs:result", "}",
    );
  }
  refs.forEach((ref, i) => {
    const shaderName = ref.outputs === "rgb" && ref.colorSpace === "sRGB" ? "baseColorTexture" : `texture${i}`;
    surface.push(`${ref.input}.connect = <${path}/${shaderName}.outputs:${ref.outputs}>`);
    shaders.push(
      `def Shader "${shaderName}"`, "{",
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

function meshPrim(name: string, part: MeshPart, materialPath: string | undefined): string[] {
  const p = part.positions;
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i++) {
    min[i % 3] = Math.min(min[i % 3]!, p[i]!);
    max[i % 3] = Math.max(max[i % 3]!, p[i]!);
  }
  const tris = part.indices.length / 3;
  const lines = [
    `def Mesh "${name}"${materialPath ? ' (\n    prepend apiSchemas = ["MaterialBindingAPI"]\n)' : ""}`,
    "{",
    "    uniform bool doubleSided = 0",
    ...(p.length > 0 ? [`    float3[] extent = [${tuple(...min)}, ${tuple(...max)}]`] : []),
    `    int[] faceVertexCounts = [${new Array<string>(tris).fill("3").join(", ")}]`,
    `    int[] faceVertexIndices = [${Array.from(part.indices).join(", ")}]`,
    ...(materialPath ? [`    rel material:binding = <${materialPath}>`] : []),
    `    normal3f[] normals = ${vec(partNormals(part), 3)} (`,
    '        interpolation = "vertex"',
    "    )",
    `    point3f[] points = ${vec(p, 3)}`,
  ];
  if (hasAttr(part.uvs, part, 2)) {
    const st = new Float32Array(part.uvs);
    for (let i = 1; i < st.length; i += 2) st[i] = 1 - st[i]!;
    lines.push(`    texCoord2f[] primvars:st = ${vec(st, 2)} (`, '        interpolation = "vertex"', "    )");
  }
  if (hasAttr(part.colors, part, 3)) {
    lines.push(`    color3f[] primvars:displayColor = ${vec(part.colors, 3)} (`, '        interpolation = "vertex"', "    )");
  }
  lines.push('    uniform token orientation = "rightHanded"', '    uniform token subdivisionScheme = "none"', "}");
  return lines;
}

export async function writeUsdz(scene: Scene): Promise<Uint8Array> {
  assertValidScene(scene);
  const pngs = new PngCache();
  const files = new Map<RasterImage, string>();
  const entries: StoredEntry[] = [];
  for (const m of new Set(scene.parts.flatMap((p) => (p.material ? [p.material] : [])))) {
    for (const img of [m.baseColorTexture, m.metallicRoughnessTexture, m.normalTexture]) {
      if (!img || files.has(img)) continue;
      const file = `textures/texture_${files.size}.png`;
      files.set(img, file);
      entries.push({ name: file, data: await pngs.get(img) });
    }
  }
  const matName = uniqueNamer();
  const primName = uniqueNamer();
  const materials = new Map<string, { material: Material; path: string; name: string; colors: boolean }>();
  const materialIds = new Map<Material, number>();
  const meshes: string[] = [];
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
    meshes.push(...meshPrim(primName(safeName(part.name, "part")), part, path), "");
  }
  const materialLines: string[] = [];
  for (const { material, path, name, colors } of materials.values()) {
    materialLines.push(...materialPrim(path, name, material, files, colors), "");
  }
  const usda = [
    "#usda 1.0",
    "(",
    '    customLayerData = {',
    '        string creator = "x3d"',
    "    }",
    '    defaultPrim = "Root"',
    "    metersPerUnit = 0.001",
    '    upAxis = "Y"',
    ")",
    "",
    'def Xform "Root"',
    "{",
    ...indent(meshes, "    "),
    '    def Scope "Materials"',
    "    {",
    ...indent(materialLines, "        "),
    "    }",
    "}",
    "",
  ].join("\n");
  return zipStoredAligned([{ name: "model.usda", data: textEncoder.encode(usda) }, ...entries]);
}
