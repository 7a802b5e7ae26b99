"use server";

import type { CreateTaskState } from "@/lib/tasks/create/action-state";
import { createSplitTask } from "@/lib/tasks/create/create-split-task";
import { createFromForm } from "@/lib/tasks/create/create-task";

export async function createSplitTaskAction(_: CreateTaskState, form: FormData): Promise<CreateTaskState> {
  return createFromForm(createSplitTask, form);
}
