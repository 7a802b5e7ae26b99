import { handleFile } from "@/lib/engine/handlers/files";

export async function GET(request: Request, { params }: { params: Promise<{ taskId: string; file: string }> }) {
  const { taskId, file } = await params;
  return handleFile(request, taskId, file);
}

/** Headers only: `handleFile` sends no body for a HEAD. */
export const HEAD = GET;
