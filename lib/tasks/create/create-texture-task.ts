import "server-only";
import { taskCost } from "@/lib/x3d/costs";
import { formShows } from "@/lib/x3d/forms/endpoint-form";
import { wireImageOptions } from "@/lib/x3d/forms/image";
import { x3d } from "@/lib/x3d/service";
import { parseTextureTaskForm } from "./parse-form";
import { costTable, createWithService, problemsState, type CreateOutcome } from "./create-task";
import { imageFiles, meshInput } from "./resolve-inputs";
import { SUBMIT_TASK_SPEC } from "@/lib/x3d/endpoints/submit-task";

const SHOWN = formShows(SUBMIT_TASK_SPEC, ["request_type", "multi_images", "multi_images_bit", "face"]);

/** Texture an existing GLB (request_type 2) from an image: the mesh is the user's upload, a URL or their earlier result. */
export async function createTextureTask(userId: string, form: FormData): Promise<CreateOutcome> {
  const parsed = parseTextureTaskForm(form);
  if (!parsed.ok) return problemsState(parsed.fields, SHOWN);
  const { options, image, mesh: source } = parsed.value;
  const [files, mesh] = await Promise.all([imageFiles(userId, [image], "images"), meshInput(userId, source, ["glb"])]);
  if (!files.ok || !mesh.ok) return problemsState({ ...(files.ok ? {} : files.fields), ...(mesh.ok ? {} : mesh.fields) }, SHOWN);
  const wire = wireImageOptions(options);
  return createWithService({
    userId,
    kind: "texture",
    cost: taskCost({ kind: "texture", ...options }, costTable()) ?? 0,
    options: wire,
    inputs: { images: [image], mesh: mesh.value.record },
    shown: SHOWN,
    call: (callback_url) =>
      x3d().submitTask({ ...wire, images: files.value[0], mesh: mesh.value.mesh, mesh_url: mesh.value.mesh_url, callback_url }),
  });
}
