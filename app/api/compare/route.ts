import { currentUser } from "@/lib/accounts";
import { compareTasks } from "@/lib/tasks/read/compare";

/** Two of the user's results as /compare shows them (`?t=<a>&t=<b>`): 404 unless both are theirs. */
export async function GET(request: Request) {
  const user = await currentUser();
  if (!user) return Response.json({ error: "Sign in first." }, { status: 401 });
  const [a, b] = new URL(request.url).searchParams.getAll("t");
  if (!a || !b) return Response.json({ error: "Name two tasks: ?t=<a>&t=<b>." }, { status: 400 });
  const outcome = await compareTasks(user.id, a, b);
  if (outcome.status === "not-found") return Response.json({ error: "No such task." }, { status: 404 });
  return Response.json(outcome, { headers: { "Cache-Control": "no-store" } });
}
