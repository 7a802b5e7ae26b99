"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { UploadInfo, UploadKind, UploadType } from "@/lib/upload/check";
import { checkFile, sendUpload, UploadError } from "./upload-request";

/** One place a file goes: empty, being checked, uploading (with progress), uploaded, or refused. */
export type UploadState =
  | { phase: "empty" }
  | { phase: "checking"; token: number; name: string }
  | { phase: "uploading"; token: number; name: string; size: number; progress: number }
  | { phase: "done"; token: number; upload: UploadInfo }
  | { phase: "error"; token: number; message: string };

const EMPTY: UploadState = { phase: "empty" };
let nextToken = 1;

export const uploadedId = (s: UploadState | undefined): string | undefined => (s?.phase === "done" ? s.upload.id : undefined);

/**
 * Upload places keyed by name (one for a single drop zone, four for the view slots). A file
 * is checked, then uploaded at once; progress follows the upload even when slots are swapped
 * meanwhile, since updates find their place by token rather than by key.
 */
export function useUploads<K extends string>(initial: Record<K, UploadInfo | undefined>, kind: UploadKind, types?: readonly UploadType[]) {
  const [slots, setSlots] = useState<Record<K, UploadState>>(() => {
    const out = {} as Record<K, UploadState>;
    for (const key of Object.keys(initial) as K[]) {
      const upload = initial[key];
      out[key] = upload ? { phase: "done", token: nextToken++, upload } : EMPTY;
    }
    return out;
  });
  const controllers = useRef(new Map<number, AbortController>());

  useEffect(() => {
    const running = controllers.current;
    return () => running.forEach((c) => c.abort());
  }, []);

  const update = useCallback((token: number, next: UploadState) => {
    setSlots((prev) => {
      const key = (Object.keys(prev) as K[]).find((k) => "token" in prev[k] && (prev[k] as { token: number }).token === token);
      return key === undefined ? prev : { ...prev, [key]: next };
    });
  }, []);

  const cancel = useCallback((state: UploadState | undefined) => {
    if (state && "token" in state) controllers.current.get(state.token)?.abort();
  }, []);

  const start = useCallback(
    (key: K, file: File) => {
      const token = nextToken++;
      setSlots((prev) => {
        cancel(prev[key]);
        return { ...prev, [key]: { phase: "checking", token, name: file.name } };
      });
      void (async () => {
        const check = await checkFile(file, kind, types);
        if (!check.ok) return update(token, { phase: "error", token, message: check.error });
        const controller = new AbortController();
        controllers.current.set(token, controller);
        update(token, { phase: "uploading", token, name: file.name, size: file.size, progress: 0 });
        try {
          const onProgress = (progress: number) => update(token, { phase: "uploading", token, name: file.name, size: file.size, progress });
          const upload = await sendUpload(file, kind, onProgress, controller.signal);
          update(token, { phase: "done", token, upload });
        } catch (error) {
          if (controller.signal.aborted) return;
          const message = error instanceof UploadError ? error.message : "The upload failed. Try again.";
          update(token, { phase: "error", token, message });
        } finally {
          controllers.current.delete(token);
        }
      })();
    },
    [cancel, kind, types, update],
  );

  const clear = useCallback(
    (key: K) =>
      setSlots((prev) => {
        cancel(prev[key]);
        return { ...prev, [key]: EMPTY };
      }),
    [cancel],
  );

  /** Exchanges two places' contents (moving to an empty place is a swap with nothing). */
  const swap = useCallback((a: K, b: K) => setSlots((prev) => (a === b ? prev : { ...prev, [a]: prev[b], [b]: prev[a] })), []);

  return { slots, start, clear, swap };
}
