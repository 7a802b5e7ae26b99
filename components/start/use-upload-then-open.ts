"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect } from "react";
import { uploadedId, useUploads } from "@/components/upload/use-uploads";

/** The image-to-3D workspace opened on an uploaded image. */
const workspaceHref = (uploadId: string) => `/new/image?upload=${encodeURIComponent(uploadId)}`;

/**
 * One image, checked and uploaded at once (with progress and the upload's own error
 * sentences), then the image-to-3D workspace opened with it.
 */
export function useUploadThenOpen() {
  const router = useRouter();
  const { slots, start, clear } = useUploads<"image">({ image: undefined }, "image");
  const state = slots.image;
  const done = uploadedId(state);
  useEffect(() => {
    if (done) router.push(workspaceHref(done));
  }, [done, router]);
  return { state, start: useCallback((file: File) => start("image", file), [start]), clear: useCallback(() => clear("image"), [clear]) };
}
