"use server";

import { currentUser } from "@/lib/accounts";
import type { CreateTaskState } from "@/lib/tasks/create/action-state";
import { createSplitTask } from "@/lib/tasks/create/create-split-task";
import { createFromForm } from "@/lib/tasks/create/create-task";

export async function createSplitTaskAction(_: CreateTaskState, form: FormData): Promise<CreateTaskState> {
  return createFromForm(await currentUser(), createSplitTask, form);
}
