import { CHECK_HEAD_BYTES, checkUpload, type UploadCheck, type UploadInfo, type UploadKind, type UploadType } from "@/lib/upload/check";

/** Checks a picked file in the browser, from its first bytes and its size, before anything is sent. */
export async function checkFile(file: File, kind: UploadKind, types?: readonly UploadType[]): Promise<UploadCheck> {
  const head = new Uint8Array(await file.slice(0, CHECK_HEAD_BYTES).arrayBuffer());
  return checkUpload({ name: file.name, size: file.size, head, kind, types });
}

/** Thrown with a sentence for the user. */
export class UploadError extends Error {}

/**
 * Streams a file to POST /api/uploads. XMLHttpRequest rather than fetch: only it reports upload
 * progress. Resolves with the staged upload; rejects with an UploadError saying what went wrong.
 */
export function sendUpload(
  file: File,
  kind: UploadKind,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<UploadInfo> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/uploads?kind=${kind}`);
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = xhr.response as (Partial<UploadInfo> & { error?: string }) | null;
      if (xhr.status === 201 && body?.id) return resolve(body as UploadInfo);
      reject(new UploadError(body?.error ?? `The upload failed (HTTP ${xhr.status}). Try again.`));
    };
    xhr.onerror = () => reject(new UploadError("The upload failed: the connection was lost. Try again."));
    xhr.onabort = () => reject(new DOMException("Upload cancelled", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    const body = new FormData();
    body.append("file", file, file.name);
    xhr.send(body);
  });
}
