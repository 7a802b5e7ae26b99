import "server-only";
import { LIMITS } from "@/lib/x3d/options";
import { DEPTH_SPEC } from "@/lib/x3d/endpoints/depth";
import { SEGMENTATION_SPEC } from "@/lib/x3d/endpoints/segmentation";
import { SPLIT_SPEC } from "@/lib/x3d/endpoints/split";
import { SUBMIT_TASK_SPEC } from "@/lib/x3d/endpoints/submit-task";
import { engine } from "../boot";
import { engineConfig } from "../config";
import { EngineError } from "../engine-error";
import { answer, ok } from "../envelope";
import { createTask } from "../tasks/create";
import { sniffImage, sniffMesh } from "@/lib/files/sniff";
import type { UploadedFile } from "../validate/form";
import { submitFileLimit, validateSubmitTask } from "../validate/submit-task";
import { validateSplitTask } from "../validate/split-task";
import { validateDepthTask } from "../validate/depth-task";
import { validateSegmentationTask } from "../validate/segmentation-task";
import type { MeshInput } from "../validate/mesh-input";
import { authorized, BEARER, TOKEN_OR_BEARER } from "./common";
import { withForm, type FormRules } from "./form-request";

const imageName = (base: string, f: UploadedFile) => `${base}.${sniffImage(f.head) ?? "bin"}`;
const meshName = (f: UploadedFile) => `mesh.${sniffMesh(f.head, f.size) ?? "bin"}`;
const meshInput = (m: MeshInput) => ("url" in m ? m : { file: m.file, name: meshName(m.file) });

async function created(taskId: string, extra?: Record<string, string>): Promise<Response> {
  // On a web server (X3D_ROLE=web) no scheduler runs here: a worker claims it within its tick.
  (await engine()).scheduler?.kick();
  return ok({ task_id: taskId, ...extra });
}

/** A task's price under the operator's cost table (which always prices split, depth and segmentation). */
function priced(cost: number | undefined, kind: string): number {
  if (cost === undefined) throw new EngineError(10000000, `no price for ${kind}`);
  return cost;
}

/** Room for the text fields and the multipart framing around the files. */
const FIELDS_BYTES = 1024 * 1024;

/** POST submit-task (image-to-3D). */
export function handleSubmitTask(request: Request): Promise<Response> {
  return answer(() =>
    authorized(request, BEARER, (clientId) =>
      withForm(
        request,
        {
          fileFields: ["images", "multi_images", "mesh"],
          maxFileBytes: submitFileLimit,
          maxFiles: LIMITS.multiImages + 4,
          // No form, so neither images nor multi_images: "images or multi images required".
          notMultipart: 10031008,
          tooLarge: () => 10031001,
          tooMany: 10031009,
          maxBodyBytes: LIMITS.multiImages * LIMITS.imageBytes + LIMITS.meshBytes + FIELDS_BYTES,
        },
        async (form) => {
          const { images, mesh, callbackUrl, options, values } = validateSubmitTask(form);
          const cost = SUBMIT_TASK_SPEC.cost(engineConfig().costs, values);
          if (cost === undefined) throw new EngineError(10031003, `no price for ${options.model} at ${options.resolution}`);
          const taskId = await createTask({
            clientId,
            kind: "image-to-3d",
            options,
            inputs: { mesh: mesh && meshInput(mesh) },
            inputLists: { images: images.map((i) => ({ key: i.view, file: i.file, name: imageName(`image-${i.view}`, i.file) })) },
            cost,
            callbackUrl,
          });
          return created(taskId);
        },
      ),
    ),
  );
}

/** POST split/create-task; answers state `queueing` as the spec shows. */
export function handleSplitCreate(request: Request): Promise<Response> {
  return answer(() =>
    authorized(request, BEARER, (clientId) =>
      withForm(request, meshRules, async (form) => {
        const { mesh, callbackUrl, options, values } = validateSplitTask(form);
        const taskId = await createTask({
          clientId,
          kind: "split",
          options,
          inputs: { mesh: meshInput(mesh) },
          cost: priced(SPLIT_SPEC.cost(engineConfig().costs, values), "split"),
          callbackUrl,
        });
        return created(taskId, { state: "queueing" });
      }),
    ),
  );
}

/** POST segmentation/create-task (addendum); `Token` scheme, Bearer accepted. */
export function handleSegmentationCreate(request: Request): Promise<Response> {
  return answer(() =>
    authorized(request, TOKEN_OR_BEARER, (clientId) =>
      withForm(request, meshRules, async (form) => {
        const { mesh, callbackUrl, options, values } = validateSegmentationTask(form);
        const taskId = await createTask({
          clientId,
          kind: "segmentation",
          options,
          inputs: { mesh: meshInput(mesh) },
          cost: priced(SEGMENTATION_SPEC.cost(engineConfig().costs, values), "segmentation"),
          callbackUrl,
        });
        return created(taskId);
      }),
    ),
  );
}

/** POST depth/create-task. */
export function handleDepthCreate(request: Request): Promise<Response> {
  return answer(() =>
    authorized(request, BEARER, (clientId) =>
      withForm(
        request,
        {
          fileFields: ["image"],
          maxFileBytes: () => LIMITS.imageBytes,
          maxFiles: 2,
          notMultipart: 10030011,
          tooLarge: () => 10033004,
          tooMany: 10030012,
          maxBodyBytes: LIMITS.imageBytes + FIELDS_BYTES,
        },
        async (form) => {
          const { image, callbackUrl, options, values } = validateDepthTask(form);
          const input = "url" in image ? image : { file: image.file, name: imageName("image", image.file) };
          const taskId = await createTask({
            clientId,
            kind: "depth",
            options,
            inputs: { image: input },
            cost: priced(DEPTH_SPEC.cost(engineConfig().costs, values), "depth"),
            callbackUrl,
          });
          return created(taskId);
        },
      ),
    ),
  );
}

const meshRules = {
  fileFields: ["mesh"],
  maxFileBytes: () => LIMITS.meshBytes,
  maxFiles: 2,
  notMultipart: 10030011,
  tooLarge: () => 10030006,
  tooMany: 10030012,
  maxBodyBytes: LIMITS.meshBytes + FIELDS_BYTES,
} satisfies FormRules;
