"use server";

import type { CreateTaskState } from "@/lib/tasks/create-form-state";
import { createImageTask } from "@/lib/tasks/create-image-task";
import { createFromForm } from "@/lib/tasks/create-task";

export async function createImageTaskAction(_: CreateTaskState, form: FormData): Promise<CreateTaskState> {
  return createFromForm(createImageTask, form);
}
