import { formatBytes } from "@/lib/files/format-bytes";
import { KIND_TYPES, typeList } from "@/lib/upload/check";
import { LIMITS } from "@/lib/x3d/file-limits";

/** What each kind of drop zone takes, in words. */
export const IMAGE_HINT = `${typeList(KIND_TYPES.image)}, up to ${formatBytes(LIMITS.imageBytes)}`;
export const MESH_HINT = `${typeList(KIND_TYPES.mesh)}, up to ${formatBytes(LIMITS.meshBytes)}`;
export const GLB_HINT = `GLB, up to ${formatBytes(LIMITS.meshBytes)}`;
