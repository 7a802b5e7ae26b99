import { refuseCrossSite } from "@/lib/http/same-origin";
import { currentUser } from "@/lib/accounts";
import { stageUpload } from "@/lib/storage/uploads";

/**
 * POST /api/uploads[?kind=image|mesh]: one file in the multipart field `file`, streamed to
 * staging. A route handler rather than a server action: actions buffer whole bodies and stop at 1 MB.
 * Answers {id, kind, type, filename, size}, or {error, field} with 400, 401, 413 or 415; {error}
 * with 403 for a request from another site (riding on the user's cookie).
 */
export async function POST(request: Request) {
  const refused = refuseCrossSite(request);
  if (refused) return refused;
  const user = await currentUser();
  if (!user) return Response.json({ error: "Sign in first.", field: "file" }, { status: 401 });
  const kind = new URL(request.url).searchParams.get("kind");
  if (kind !== null && kind !== "image" && kind !== "mesh") {
    return Response.json({ error: "kind must be image or mesh.", field: "kind" }, { status: 400 });
  }
  const result = await stageUpload(user.id, request, kind ?? undefined);
  if (!result.ok) return Response.json({ error: result.error, field: result.field }, { status: result.status });
  return Response.json(result.upload, { status: 201 });
}
