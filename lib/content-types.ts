/** Content types of every file the service produces (results and covers), by extension. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  glb: "model/gltf-binary",
  obj: "model/obj",
  stl: "model/stl",
  fbx: "application/octet-stream",
  usdz: "model/vnd.usdz+zip",
  "3mf": "model/3mf",
  zip: "application/zip",
  png: "image/png",
  webp: "image/webp",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  bmp: "image/bmp",
  exr: "image/x-exr",
};

export const contentTypeOf = (ext: string) => CONTENT_TYPES[ext] ?? "application/octet-stream";
