import { FILE_POLICY } from "@/lib/http/content-security-policy";
import { currentUser } from "@/lib/accounts";
import { contentDisposition } from "@/lib/files/serve-file";
import { findUpload, MIME_TYPES, openUpload } from "@/lib/storage/uploads";
import type { UploadType } from "@/lib/upload/check";

const notFound = () => Response.json({ error: "No such upload." }, { status: 404 });

/** GET /api/uploads/<id>: the signed-in user's own staged file (thumbnails); 404 for anyone else's. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await currentUser();
  if (!user) return notFound();
  const upload = await findUpload(user.id, (await params).id);
  if (!upload) return notFound();
  const opened = await openUpload(upload);
  if (!opened) return notFound();
  const image = upload.kind === "image";
  return new Response(opened.body, {
    headers: {
      "Content-Type": MIME_TYPES[upload.type as UploadType] ?? "application/octet-stream",
      "Content-Length": String(opened.size),
      "Content-Disposition": contentDisposition(image ? "inline" : "attachment", upload.filename),
      "Cache-Control": "private, max-age=86400",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": FILE_POLICY,
    },
  });
}
