"use client";

import dynamic from "next/dynamic";

export type { ModelViewerProps } from "./model-viewer";

/**
 * The result viewer, loaded on demand: three.js and its loaders stay out of every page's
 * first bundle and never run on the server. Pages import this, not ./model-viewer.
 */
export const LazyModelViewer = dynamic(() => import("./model-viewer"), {
  ssr: false,
  loading: () => (
    <div className="flex h-[480px] w-full items-center justify-center rounded-lg border border-neutral-800 text-sm text-neutral-400" role="status">
      Loading viewer…
    </div>
  ),
});
