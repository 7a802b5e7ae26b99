import "server-only";
import { taskCost } from "@/lib/x3d/costs";
import { formShows } from "@/lib/x3d/forms/endpoint-form";
import { wireImageOptions } from "@/lib/x3d/forms/image";
import { viewBits, viewsInOrder } from "@/lib/x3d/forms/views";
import { x3d } from "@/lib/x3d/service";
import { parseImageTaskForm } from "./parse-form";
import { costTable, createWithService, problemsState, type CreateOutcome } from "./create-task";
import { imageFiles } from "./resolve-inputs";
import { SUBMIT_TASK_SPEC } from "@/lib/x3d/endpoints/submit-task";

const SHOWN = formShows(SUBMIT_TASK_SPEC, ["mesh", "mesh_url"]);

/** Image to 3D from one image or from views: validate, check the uploads are the user's, submit, record. */
export async function createImageTask(userId: string, form: FormData): Promise<CreateOutcome> {
  const parsed = parseImageTaskForm(form);
  if (!parsed.ok) return problemsState(parsed.fields, SHOWN);
  const { options, input } = parsed.value;
  const multi = input.mode === "multi";
  const ids = multi ? viewsInOrder(input.views) : [input.image];
  const files = await imageFiles(userId, ids, multi ? "multi_images_bit" : "images");
  if (!files.ok) return problemsState(files.fields, SHOWN);
  const wire = wireImageOptions(options);
  const bits = multi ? viewBits(input.views) : undefined;
  return createWithService({
    userId,
    kind: "image-to-3d",
    cost: taskCost({ kind: "image-to-3d", ...options }, costTable()) ?? 0,
    options: bits ? { ...wire, multi_images_bit: bits } : wire,
    inputs: multi ? { multi_images: ids, multi_images_bit: bits } : { images: ids },
    shown: SHOWN,
    call: (callback_url) =>
      x3d().submitTask(
        multi
          ? { ...wire, multi_images: files.value, multi_images_bit: bits, callback_url }
          : { ...wire, images: files.value[0], callback_url },
      ),
  });
}
