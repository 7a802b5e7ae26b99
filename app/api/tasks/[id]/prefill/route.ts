import { currentUser } from "@/lib/accounts";
import { findUserTask } from "@/lib/tasks/read/queries";
import { formStart } from "@/lib/tasks/create/workspace";

/** The create form of the user's task's kind, filled with that task's options and its inputs still stored. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await currentUser();
  if (!user) return Response.json({ error: "Sign in first." }, { status: 401 });
  const { id } = await params;
  const task = await findUserTask(user.id, id);
  if (!task) return Response.json({ error: "No such task." }, { status: 404 });
  return Response.json(await formStart(user.id, task.kind, { again: task.id }), { headers: { "Cache-Control": "no-store" } });
}
