import "server-only";
import fs from "node:fs";
import path from "node:path";
import { contentTypeOf } from "@/lib/content-types";
import { fileBody } from "@/lib/storage/file-body";
import { verifyFileUrl } from "../results";
import { taskDir } from "../tasks/store";
import { engineOff } from "./common";

/** GET files/<task>/<file>?auth_key=&t=: a result or cover, without auth, while the signature holds. */
export async function handleFile(request: Request, taskId: string, file: string): Promise<Response> {
  const off = engineOff();
  if (off) return off;
  const url = new URL(request.url);
  if (!/^(result|cover)\.[a-z0-9]+$/.test(file)) return new Response("Not Found", { status: 404 });
  if (!(await verifyFileUrl(taskId, file, url.searchParams.get("t"), url.searchParams.get("auth_key")))) {
    return new Response("This link has expired or is not valid.", { status: 403, headers: { "Access-Control-Allow-Origin": "*" } });
  }
  let full: string;
  try {
    full = path.join(taskDir(taskId), file);
  } catch {
    return new Response("Not Found", { status: 404 });
  }
  const stat = await fs.promises.stat(full).catch(() => null);
  if (!stat?.isFile()) return new Response("Not Found", { status: 404 });
  const ext = file.slice(file.lastIndexOf(".") + 1);
  const headers: Record<string, string> = {
    "Content-Type": contentTypeOf(ext),
    "Content-Length": String(stat.size),
    "Access-Control-Allow-Origin": "*",
    "Cache-Control": "private, max-age=300",
  };
  if (file.startsWith("result")) headers["Content-Disposition"] = `attachment; filename="${taskId}.${ext}"`;
  return new Response(await fileBody(full), { headers });
}
