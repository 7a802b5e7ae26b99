"use server";

import { currentUser } from "@/lib/accounts";
import type { CreateTaskState } from "@/lib/tasks/create/action-state";
import { createSegmentationTask, lookUpSegmentationTask } from "@/lib/tasks/create/create-segmentation-task";
import { createFromForm } from "@/lib/tasks/create/create-task";

export async function createSegmentationTaskAction(_: CreateTaskState, form: FormData): Promise<CreateTaskState> {
  return createFromForm(await currentUser(), createSegmentationTask, form);
}

export async function lookUpSegmentationTaskAction(_: CreateTaskState, form: FormData): Promise<CreateTaskState> {
  return createFromForm(await currentUser(), lookUpSegmentationTask, form);
}
