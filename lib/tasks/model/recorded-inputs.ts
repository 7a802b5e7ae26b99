import type { StudioTaskKind } from "@/lib/db/schema";
import { slotsFromBits } from "@/lib/x3d/forms/views";
import { VIEWS } from "@/lib/x3d/options";

/**
 * A task's inputs as lib/tasks/create/create-*-task.ts recorded them, in the order the task page
 * shows them. Pure: the page, the share page and the input file routes all number them alike.
 */

/** Where an input came from: the owner's upload, one of their earlier tasks, or a URL. */
type InputRef = { upload: string } | { task: string } | { url: string };

export interface InputEntry {
  /** "image", "front"…"right", or "mesh". */
  label: string;
  role: "image" | "mesh";
  ref: InputRef;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function ref(stored: unknown): InputRef | undefined {
  if (typeof stored !== "object" || stored === null) return undefined;
  const fields = stored as Record<string, unknown>;
  const upload = str(fields.upload);
  if (upload) return { upload };
  const task = str(fields.task);
  if (task) return { task };
  const url = str(fields.url);
  return url ? { url } : undefined;
}

/** The recorded inputs of a task of `kind`, labelled: views by their side, then the mesh. */
export function inputEntries(kind: StudioTaskKind, inputs: Record<string, unknown>): InputEntry[] {
  const entries: InputEntry[] = [];
  for (const upload of strings(inputs.images)) entries.push({ label: "image", role: "image", ref: { upload } });
  const views = strings(inputs.multi_images);
  if (views.length) {
    const slots = slotsFromBits(str(inputs.multi_images_bit) ?? "1111", views);
    for (const view of VIEWS) {
      const upload = slots[view];
      if (upload) entries.push({ label: view, role: "image", ref: { upload } });
    }
  }
  const image = ref(inputs.image);
  if (image) entries.push({ label: "image", role: "image", ref: image });
  const mesh = ref(inputs.mesh);
  if (mesh) entries.push({ label: kind === "texture" ? "mesh to texture" : "mesh", role: "mesh", ref: mesh });
  return entries;
}

/** The upload id of the image a task was made from (its front view for several views), if any. */
export function sourceImageUpload(inputs: Record<string, unknown>): string | undefined {
  const entry = inputEntries("image-to-3d", inputs).find((e) => e.role === "image" && (e.label === "image" || e.label === "front"));
  return entry && "upload" in entry.ref ? entry.ref.upload : undefined;
}

/** One input as the task page and the share page show it. */
export interface TaskInputView {
  label: string;
  role: "image" | "mesh";
  /** The image (or the earlier result's cover) through the page's own file routes; null when not stored. */
  imageUrl: string | null;
  /** The upload's file name, the URL (owner only), or which earlier result. */
  name: string | null;
  /** The owner's earlier task it came from (owner only). */
  taskId: string | null;
}
