"use server";

import type { CreateTaskState } from "@/lib/tasks/create-form-state";
import { createSegmentationTask, lookUpSegmentationTask } from "@/lib/tasks/create-segmentation-task";
import { createAndRedirect } from "@/lib/tasks/create-task";

export async function createSegmentationTaskAction(_: CreateTaskState, form: FormData): Promise<CreateTaskState> {
  return createAndRedirect(createSegmentationTask, form);
}

export async function lookUpSegmentationTaskAction(_: CreateTaskState, form: FormData): Promise<CreateTaskState> {
  return createAndRedirect(lookUpSegmentationTask, form);
}
