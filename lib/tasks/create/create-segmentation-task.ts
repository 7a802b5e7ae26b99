import "server-only";
import { eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { studioTasks } from "@/lib/db/schema";
import { taskCost } from "@/lib/x3d/costs";
import { ERRORS } from "@/lib/x3d/errors";
import { formShows } from "@/lib/x3d/forms/endpoint-form";
import { MESH_TYPES } from "@/lib/x3d/options";
import { x3d } from "@/lib/x3d/service";
import { parseLookupForm, parseSegmentationTaskForm } from "./parse-form";
import { costTable, createWithService, problemsState, type CreateOutcome } from "./create-task";
import { meshInput } from "./resolve-inputs";
import { ownedBy } from "../read/queries";
import { SEGMENTATION_SPEC } from "@/lib/x3d/endpoints/segmentation";

const SHOWN = formShows(SEGMENTATION_SPEC);
/** The service's "task not found". */
const UNKNOWN_TASK = 10030010;

/** Segment a mesh (upload, URL or earlier result). */
export async function createSegmentationTask(userId: string, form: FormData): Promise<CreateOutcome> {
  const parsed = parseSegmentationTaskForm(form);
  if (!parsed.ok) return problemsState(parsed.fields, SHOWN);
  const mesh = await meshInput(userId, parsed.value.mesh, MESH_TYPES);
  if (!mesh.ok) return problemsState(mesh.fields, SHOWN);
  const { options } = parsed.value;
  return createWithService({
    userId,
    kind: "segmentation",
    cost: taskCost({ kind: "segmentation" }, costTable()) ?? 0,
    options,
    inputs: { mesh: mesh.value.record },
    shown: SHOWN,
    call: (callback_url) =>
      x3d().createSegmentationTask({ ...options, mesh: mesh.value.mesh, mesh_url: mesh.value.mesh_url, callback_url }),
  });
}

/**
 * Finds one of the user's own segmentation tasks by its service id. Every studio user shares
 * one service account, so the service would confirm any of its tasks, another user's or one
 * started elsewhere: only a task the studio recorded for this user is found. Any other id is
 * "No such task", the service's own answer for an unknown id, so an answer never tells whose
 * a task is or that it exists. The service is not asked.
 */
export async function lookUpSegmentationTask(userId: string, form: FormData): Promise<CreateOutcome> {
  const shown = ["task_id"];
  const parsed = parseLookupForm(form);
  if (!parsed.ok) return problemsState(parsed.fields, shown);
  const { taskId } = parsed.value;
  const [own] = await (
    await db()
  )
    .select({ id: studioTasks.id })
    .from(studioTasks)
    .where(ownedBy(userId, eq(studioTasks.kind, "segmentation"), eq(studioTasks.serviceTaskId, taskId)))
    .limit(1);
  if (own) return { status: "created", id: own.id };
  return problemsState({ task_id: ERRORS[UNKNOWN_TASK].user }, shown, UNKNOWN_TASK);
}
