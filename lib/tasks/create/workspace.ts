import "server-only";
import type { StudioTaskKind } from "@/lib/db/schema";
import type { MeshKind } from "@/lib/files/sniff";
import { MESH_TYPES } from "@/lib/x3d/options";
import { initialDepthOptions, initialImageOptions, initialSegmentationOptions, initialSplitOptions } from "./starting-values";
import type { FormStart } from "./form-props";
import { prefillFor } from "./prefill";
import { findUserTask, listUserTasks } from "../read/queries";
import { taskView, type TaskView } from "../model/task-view";
import type { WorkspaceParams } from "./search-params";

/** How many of the artist's results the strip loads at a time. */
export const STRIP_PAGE_SIZE = 30;

/** The mesh types each kind's form takes (none: the form takes no mesh; `?from=` then gives an image). */
export const FORM_MESH_TYPES: Record<StudioTaskKind, readonly MeshKind[]> = {
  "image-to-3d": [],
  texture: ["glb"],
  split: MESH_TYPES,
  depth: [],
  segmentation: MESH_TYPES,
};

/** The form of `kind` filled from `again` (an earlier task), `from` (a result as input) or `upload` (an image). */
export async function formStart(userId: string, kind: StudioTaskKind, params: Omit<WorkspaceParams, "task">): Promise<FormStart> {
  // Image to 3D takes no earlier result as its input: `?from=` means nothing there.
  const from = kind === "image-to-3d" ? undefined : params.from;
  const prefill = await prefillFor(userId, { kind, again: params.again, from, upload: params.upload, meshTypes: FORM_MESH_TYPES[kind] });
  const notice = prefill.notice;
  const upload = prefill.image?.source === "upload" ? prefill.image.upload : undefined;
  switch (kind) {
    case "image-to-3d":
      return { kind, notice, initial: { options: initialImageOptions(prefill.options), image: upload, views: prefill.views } };
    case "texture":
      return { kind, notice, initial: { options: initialImageOptions(prefill.options, true), image: upload, mesh: prefill.mesh } };
    case "split":
      return { kind, notice, initial: { options: initialSplitOptions(prefill.options), mesh: prefill.mesh } };
    case "depth":
      return { kind, notice, initial: { options: initialDepthOptions(prefill.options), image: prefill.image } };
    case "segmentation":
      return { kind, notice, initial: { options: initialSegmentationOptions(prefill.options), mesh: prefill.mesh } };
  }
}

/** One page of the artist's results of `kind` for the strip, newest first. */
export async function stripPage(userId: string, kind: StudioTaskKind, page: number): Promise<{ tasks: TaskView[]; hasMore: boolean }> {
  const { tasks, hasNext } = await listUserTasks(userId, { kind, page }, STRIP_PAGE_SIZE);
  return { tasks: tasks.map((task) => taskView(task)), hasMore: hasNext };
}

/** What a create page opens with: the form, the strip's first page and the task shown. */
export interface WorkspaceStart {
  form: FormStart;
  /** The task the form was filled from, else "new": the form is remounted when it changes. */
  formKey: string;
  tasks: TaskView[];
  hasMore: boolean;
  /** The task shown in the viewer (`?task=`, when it is the user's task of this kind). */
  selected: string | null;
}

/**
 * A create page's start from its address: `?task=<id>` shows that task and fills the form from
 * it (unless `?again=`, `?from=` or `?upload=` say what to fill it with).
 */
export async function workspaceStart(userId: string, kind: StudioTaskKind, params: WorkspaceParams): Promise<WorkspaceStart> {
  const [shown, strip] = await Promise.all([params.task ? findUserTask(userId, params.task) : null, stripPage(userId, kind, 1)]);
  const selected = shown?.kind === kind ? shown : null;
  const fillFromShown = selected && !params.again && !params.from && !params.upload;
  const again = fillFromShown ? selected.id : params.again;
  const form = await formStart(userId, kind, { ...params, again });
  const tasks = strip.tasks;
  // Shown from further down the history than the first page: listed too, after the page.
  if (selected && !tasks.some((task) => task.id === selected.id)) tasks.push(taskView(selected));
  return { form, formKey: again ?? "new", tasks, hasMore: strip.hasMore, selected: selected?.id ?? null };
}
