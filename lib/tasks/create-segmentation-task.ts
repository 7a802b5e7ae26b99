import "server-only";
import { and, eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { studioTasks } from "@/lib/db/schema";
import { newId } from "@/lib/storage";
import { X3dError } from "@/lib/x3d/client";
import { taskCost } from "@/lib/x3d/form-logic";
import { MESH_TYPES } from "@/lib/x3d/options";
import { x3d } from "@/lib/x3d/service";
import { parseLookupForm, parseSegmentationTaskForm } from "./create-forms";
import { costTable, createWithService, problemsState, serviceErrorState, type CreateOutcome } from "./create-task";
import { meshInput } from "./inputs";
import { recordTask } from "./record";

const SHOWN = ["mesh", "mesh_url", "seg_level", "format"];

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
    call: (callback_url) => x3d().createSegmentationTask({ ...options, mesh: mesh.value.mesh, mesh_url: mesh.value.mesh_url, callback_url }),
  });
}

/** Failed tasks answer the query with these codes: the task exists, so it can be watched. */
const FAILED_CODES = new Set([5001001, 50010001]);

/**
 * Records a studio task for an existing service segmentation task, after the service confirms
 * it exists, so the user can watch it. The same user looking up the same id again gets the same
 * studio task. Nothing is charged; there is no callback (the task page polls).
 */
export async function lookUpSegmentationTask(userId: string, form: FormData): Promise<CreateOutcome> {
  const shown = ["task_id"];
  const parsed = parseLookupForm(form);
  if (!parsed.ok) return problemsState(parsed.fields, shown);
  const { taskId } = parsed.value;
  const [existing] = await (await db())
    .select({ id: studioTasks.id })
    .from(studioTasks)
    .where(and(eq(studioTasks.userId, userId), eq(studioTasks.kind, "segmentation"), eq(studioTasks.serviceTaskId, taskId)))
    .limit(1);
  if (existing) return { status: "created", id: existing.id };
  try {
    await x3d().querySegmentationTask(taskId);
  } catch (error) {
    if (!(error instanceof X3dError && FAILED_CODES.has(error.code))) return serviceErrorState(error, shown);
  }
  const { id } = await recordTask({
    id: newId(12),
    userId,
    kind: "segmentation",
    serviceTaskId: taskId,
    options: {},
    inputs: { lookup: taskId },
    cost: 0,
    callbackSecretHash: null,
  });
  return { status: "created", id };
}
