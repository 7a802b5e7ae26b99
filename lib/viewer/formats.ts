/** Result formats the viewer can show, and how each one is shown. */

export const MODEL_FORMATS = ["glb", "obj", "zip", "stl", "fbx", "usdz", "3mf"] as const;
const IMAGE_FORMATS = ["png", "bmp", "exr"] as const;

export type ModelFormat = (typeof MODEL_FORMATS)[number];
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export type ViewerFormat = ModelFormat | ImageFormat;

const ALL: readonly string[] = [...MODEL_FORMATS, ...IMAGE_FORMATS];

/** True for depth images (drawn as a picture, not a mesh). */
export function isImageFormat(format: ViewerFormat): format is ImageFormat {
  return (IMAGE_FORMATS as readonly string[]).includes(format);
}

/**
 * Formats written Z-up (3D-printing convention: STL, 3MF); the viewer, Y-up like glTF,
 * turns them upright.
 */
export function isZUp(format: ViewerFormat): boolean {
  return format === "stl" || format === "3mf";
}

/** The last path segment of a file name or URL, without query string or fragment. */
export function fileNameOf(nameOrUrl: string): string {
  const path = nameOrUrl.split(/[?#]/, 1)[0] ?? "";
  const segments = path.split(/[\\/]/);
  let last = segments.pop() ?? "";
  try {
    last = decodeURIComponent(last);
  } catch {
    // A stray "%" is kept as written.
  }
  return last;
}

/** The viewer format of a file name, URL or bare extension ("GLB", ".glb", "a/b.glb?x=1"); null when unsupported. */
export function formatFromExtension(nameOrUrl: string): ViewerFormat | null {
  const name = fileNameOf(nameOrUrl.trim()).toLowerCase();
  const dot = name.lastIndexOf(".");
  const ext = dot >= 0 ? name.slice(dot + 1) : name;
  return ALL.includes(ext) ? (ext as ViewerFormat) : null;
}

/** A file name for the screenshot of a model: its base name (no extension) plus ".png". */
export function screenshotName(nameOrUrl: string, fallback = "model"): string {
  const name = fileNameOf(nameOrUrl);
  const dot = name.lastIndexOf(".");
  const base = (dot > 0 ? name.slice(0, dot) : name).replace(/[^\w.-]+/g, "_").replace(/^[._]+/, "");
  return `${base || fallback}.png`;
}
