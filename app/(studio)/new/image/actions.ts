"use server";

import { currentUser } from "@/lib/accounts";
import type { CreateTaskState } from "@/lib/tasks/create/action-state";
import { createImageTask } from "@/lib/tasks/create/create-image-task";
import { createFromForm } from "@/lib/tasks/create/create-task";

export async function createImageTaskAction(_: CreateTaskState, form: FormData): Promise<CreateTaskState> {
  return createFromForm(await currentUser(), createImageTask, form);
}
