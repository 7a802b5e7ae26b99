import { log } from "@/lib/log";
import { backupArchive } from "@/lib/ops/backup";
import { opsAuthorized } from "@/lib/ops/ops-token";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * GET /api/ops/backup, for `npm run backup` (scripts/backup.mjs): a gzipped tar of a consistent
 * snapshot of the database, the generated secrets and the stored files (or, with X3D_STORAGE, a
 * manifest of their keys), streamed as it is read (lib/ops/backup.ts,
 * docs/operations.md#backups). Only for `Authorization: Bearer <ops token>` (DATA_DIR/ops-token
 * or X3D_OPS_TOKEN); 401 otherwise. It holds every account's data: never cached.
 */
export async function GET(request: Request) {
  if (!opsAuthorized(request.headers.get("authorization")))
    return Response.json(
      { error: "A backup needs Authorization: Bearer <the ops token> (DATA_DIR/ops-token, or X3D_OPS_TOKEN)." },
      { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="ops"', "Cache-Control": "no-store" } },
    );
  try {
    const archive = await backupArchive();
    log.info(`backup: streaming ${archive.filename}`);
    return new Response(archive.body, {
      headers: {
        "Content-Type": "application/gzip",
        "Content-Disposition": `attachment; filename="${archive.filename}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    log.error({ err: error }, "backup: the snapshot failed");
    return Response.json({ error: "The backup failed: the database snapshot could not be read (see the server's log)." }, { status: 503 });
  }
}
