/**
 * What the studio accepts as an upload, checked from a file's first bytes and its size. The
 * browser runs it before uploading and the upload route runs it again on what arrived, so both
 * say the same sentence. Safe to import from client components (no Node APIs).
 */
import { formatBytes } from "@/lib/files/format-bytes";
import { HEAD_BYTES, sniffImage, sniffMesh, type ImageKind, type MeshKind } from "@/lib/files/sniff";
import { IMAGE_TYPES, LIMITS, MESH_TYPES } from "@/lib/x3d/file-limits";

export type UploadKind = "image" | "mesh";
export type UploadType = ImageKind | MeshKind;

/** How many leading bytes the check needs. */
export const CHECK_HEAD_BYTES = HEAD_BYTES;

/** An upload as the route answers it and as forms hold it. */
export interface UploadInfo {
  id: string;
  kind: UploadKind;
  type: UploadType;
  filename: string;
  size: number;
}

export const TYPE_LABELS: Record<UploadType, string> = { png: "PNG", jpeg: "JPEG", webp: "WebP", glb: "GLB", stl: "STL", obj: "OBJ" };

export const KIND_TYPES: Record<UploadKind, readonly UploadType[]> = { image: IMAGE_TYPES, mesh: MESH_TYPES };

/** Most bytes of one upload of a kind. */
export const maxUploadBytes = (kind: UploadKind): number => (kind === "image" ? LIMITS.imageBytes : LIMITS.meshBytes);

/** "PNG, JPEG or WebP". */
export function typeList(types: readonly UploadType[]): string {
  const labels = types.map((t) => TYPE_LABELS[t]);
  return labels.length <= 1 ? (labels[0] ?? "") : `${labels.slice(0, -1).join(", ")} or ${labels.at(-1)}`;
}

const noun = (kind: UploadKind) => (kind === "image" ? "image" : "model");
const plural = (kind: UploadKind) => (kind === "image" ? "images" : "models");

export type UploadCheck =
  { ok: true; kind: UploadKind; type: UploadType } | { ok: false; reason: "empty" | "size" | "type"; error: string };

export interface UploadCheckInput {
  name: string;
  size: number;
  /** The first CHECK_HEAD_BYTES bytes (all of them for a shorter file). */
  head: Uint8Array;
  /** The kind the form asked for; undefined takes either, judged by the bytes. */
  kind?: UploadKind | undefined;
  /** A narrower set of types than the kind's (texturing takes GLB only). */
  types?: readonly UploadType[] | undefined;
}

function sniff(head: Uint8Array, size: number): { kind: UploadKind; type: UploadType } | null {
  const image = sniffImage(head);
  if (image) return { kind: "image", type: image };
  const mesh = sniffMesh(head, size);
  return mesh ? { kind: "mesh", type: mesh } : null;
}

/** Whether a file may be uploaded, and what it is; the refusal is a sentence naming the file. */
export function checkUpload({ name, size, head, kind, types }: UploadCheckInput): UploadCheck {
  const label = name || "The file";
  if (size === 0) return { ok: false, reason: "empty", error: `${label} is empty.` };
  const tooLarge = (k: UploadKind): UploadCheck => ({
    ok: false,
    reason: "size",
    error: `${label} is ${formatBytes(size)}: ${plural(k)} may be at most ${formatBytes(maxUploadBytes(k))}.`,
  });
  if (kind && size > maxUploadBytes(kind)) return tooLarge(kind);
  const found = sniff(head, size);
  const allowed = types ?? (kind ? KIND_TYPES[kind] : [...IMAGE_TYPES, ...MESH_TYPES]);
  if (!found || !allowed.includes(found.type) || (kind && found.kind !== kind)) {
    const what = kind ? `a ${typeList(allowed)} ${noun(kind)}` : `a ${typeList(IMAGE_TYPES)} image or a ${typeList(MESH_TYPES)} model`;
    const article = found && (found.type === "obj" || found.type === "stl") ? "an" : "a";
    const is = found ? ` (it is ${article} ${TYPE_LABELS[found.type]} ${noun(found.kind)})` : "";
    return { ok: false, reason: "type", error: `${label} is not ${what}${is}.` };
  }
  if (size > maxUploadBytes(found.kind)) return tooLarge(found.kind);
  return { ok: true, ...found };
}
