import "server-only";
import { taskCost } from "@/lib/x3d/costs";
import { wireDepthOptions } from "@/lib/x3d/forms/depth";
import { formShows } from "@/lib/x3d/forms/endpoint-form";
import { x3d } from "@/lib/x3d/service";
import { parseDepthTaskForm, type Parsed } from "./parse-form";
import { costTable, createWithService, problemsState, type CreateOutcome } from "./create-task";
import { coverImageFile, imageFiles } from "./resolve-inputs";
import { DEPTH_SPEC } from "@/lib/x3d/endpoints/depth";

const SHOWN = formShows(DEPTH_SPEC);

/** The file of a one-upload list. */
function oneFile<T>(files: Parsed<T[]>): Parsed<T> {
  if (!files.ok) return files;
  const [only] = files.value;
  if (only === undefined) throw new Error("a one-upload list answered no file");
  return { ok: true, value: only };
}

/** A depth map or relief from an image (the user's upload or a URL), with the fields of its rmbg mode. */
export async function createDepthTask(userId: string, form: FormData): Promise<CreateOutcome> {
  const parsed = parseDepthTaskForm(form);
  if (!parsed.ok) return problemsState(parsed.fields, SHOWN);
  const { options, image } = parsed.value;
  const file =
    image.source === "upload"
      ? await imageFiles(userId, [image.upload], "image").then(oneFile)
      : image.source === "task"
        ? await coverImageFile(userId, image.task, "image")
        : undefined;
  if (file && !file.ok) return problemsState(file.fields, SHOWN);
  const wire = wireDepthOptions(options);
  return createWithService({
    userId,
    kind: "depth",
    cost: taskCost({ kind: "depth" }, costTable()) ?? 0,
    options: wire,
    inputs: {
      image: image.source === "upload" ? { upload: image.upload } : image.source === "task" ? { task: image.task } : { url: image.url },
    },
    shown: SHOWN,
    call: (callback_url) =>
      x3d().createDepthTask({
        ...wire,
        ...(file?.ok ? { image: file.value } : {}),
        ...(image.source === "url" ? { image_url: image.url } : {}),
        callback_url,
      }),
  });
}
