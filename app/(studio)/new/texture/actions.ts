"use server";

import type { CreateTaskState } from "@/lib/tasks/create-form-state";
import { createAndRedirect } from "@/lib/tasks/create-task";
import { createTextureTask } from "@/lib/tasks/create-texture-task";

export async function createTextureTaskAction(_: CreateTaskState, form: FormData): Promise<CreateTaskState> {
  return createAndRedirect(createTextureTask, form);
}
