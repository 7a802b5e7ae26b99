/**
 * What the x3d Open API takes as input files: their types and sizes (open-api.md 4.2). Kept
 * apart from the option matrix (options.ts re-exports them) so a drop zone's hint does not load
 * every model and resolution.
 */

export const IMAGE_TYPES = ["png", "jpeg", "webp"] as const;
export const MESH_TYPES = ["glb", "stl", "obj"] as const;

export const LIMITS = {
  imageBytes: 20 * 1024 * 1024,
  meshBytes: 200 * 1024 * 1024,
  multiImages: 4,
} as const;
