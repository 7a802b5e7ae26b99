"use server";

import { currentUser } from "@/lib/accounts";
import type { CreateTaskState } from "@/lib/tasks/create/action-state";
import { createFromForm } from "@/lib/tasks/create/create-task";
import { createTextureTask } from "@/lib/tasks/create/create-texture-task";

export async function createTextureTaskAction(_: CreateTaskState, form: FormData): Promise<CreateTaskState> {
  return createFromForm(await currentUser(), createTextureTask, form);
}
