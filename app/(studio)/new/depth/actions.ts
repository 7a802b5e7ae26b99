"use server";

import { currentUser } from "@/lib/accounts";
import type { CreateTaskState } from "@/lib/tasks/create/action-state";
import { createDepthTask } from "@/lib/tasks/create/create-depth-task";
import { createFromForm } from "@/lib/tasks/create/create-task";

export async function createDepthTaskAction(_: CreateTaskState, form: FormData): Promise<CreateTaskState> {
  return createFromForm(await currentUser(), createDepthTask, form);
}
