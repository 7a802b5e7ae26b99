import { z } from "zod";
import { currentUser } from "@/lib/accounts";
import { TASK_KINDS } from "@/lib/tasks/model/task-types";
import { stripPage } from "@/lib/tasks/create/workspace";

const QuerySchema = z.object({
  kind: z.enum(TASK_KINDS),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});

/** A page of the user's tasks of one kind, newest first, as a create page's strip shows them (`?kind=&page=`). */
export async function GET(request: Request) {
  const user = await currentUser();
  if (!user) return Response.json({ error: "Sign in first." }, { status: 401 });
  const params = new URL(request.url).searchParams;
  const query = QuerySchema.safeParse({ kind: params.get("kind") ?? undefined, page: params.get("page") ?? undefined });
  if (!query.success)
    return Response.json({ error: "Say which kind of task: ?kind=image-to-3d, texture, split, depth or segmentation." }, { status: 400 });
  return Response.json(await stripPage(user.id, query.data.kind, query.data.page), { headers: { "Cache-Control": "no-store" } });
}
