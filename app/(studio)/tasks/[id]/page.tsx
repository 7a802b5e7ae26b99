import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { TaskDetail } from "@/components/tasks/task-detail";
import { requireUser } from "@/app/(studio)/require-user";
import { findUserTask } from "@/lib/tasks/read/queries";
import { taskView } from "@/lib/tasks/model/task-view";
import { activeShare, sharePath } from "@/lib/tasks/read/shared-task";
import { taskInputs } from "@/lib/tasks/read/shown-inputs";
import { createShareAction, revokeShareAction } from "./actions";

export const metadata: Metadata = { title: "Task · x3d studio" };

export default async function TaskPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  const { id } = await params;
  const task = await findUserTask(user.id, id);
  if (!task) notFound();
  const [token, inputs] = await Promise.all([activeShare(user.id, task.id), taskInputs(task, { owner: task.id })]);
  // The full width under the header: the viewer first (components/tasks/result-layout.tsx).
  return (
    <TaskDetail
      initial={taskView(task)}
      inputs={inputs}
      sharePath={token ? sharePath(token) : null}
      createShare={createShareAction}
      revokeShare={revokeShareAction}
    />
  );
}
