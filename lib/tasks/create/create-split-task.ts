import "server-only";
import { taskCost } from "@/lib/x3d/costs";
import { formShows } from "@/lib/x3d/forms/endpoint-form";
import { wireSplitOptions } from "@/lib/x3d/forms/split";
import { MESH_TYPES } from "@/lib/x3d/options";
import { x3d } from "@/lib/x3d/service";
import { parseSplitTaskForm } from "./parse-form";
import { costTable, createWithService, problemsState, type CreateOutcome } from "./create-task";
import { meshInput } from "./resolve-inputs";
import { SPLIT_SPEC } from "@/lib/x3d/endpoints/split";

const SHOWN = formShows(SPLIT_SPEC);

/** Split a mesh (upload, URL or earlier result) with the fields of its model. */
export async function createSplitTask(userId: string, form: FormData): Promise<CreateOutcome> {
  const parsed = parseSplitTaskForm(form);
  if (!parsed.ok) return problemsState(parsed.fields, SHOWN);
  const mesh = await meshInput(userId, parsed.value.mesh, MESH_TYPES);
  if (!mesh.ok) return problemsState(mesh.fields, SHOWN);
  const wire = wireSplitOptions(parsed.value.options);
  return createWithService({
    userId,
    kind: "split",
    cost: taskCost({ kind: "split" }, costTable()) ?? 0,
    options: wire,
    inputs: { mesh: mesh.value.record },
    shown: SHOWN,
    call: (callback_url) => x3d().createSplitTask({ ...wire, mesh: mesh.value.mesh, mesh_url: mesh.value.mesh_url, callback_url }),
  });
}
