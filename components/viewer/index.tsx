"use client";

import dynamic from "next/dynamic";
import { Suspense } from "react";
import { isSoftwareRenderer } from "@/lib/viewer/software-renderer";

export type { ViewerPanels } from "./model-viewer";
export type { ModelFacts } from "./compare-viewer";

/**
 * The result viewer, loaded on demand: three.js and its loaders stay out of every page's
 * first bundle and never run on the server. Pages import this, not ./model-viewer.
 */
const loadViewer = () => import("./model-viewer");

// Only pages that show a result import this module: start fetching the viewer's code as soon
// as it evaluates in the browser, rather than when React first renders the viewer, and probe
// the WebGL renderer (a throwaway context, tens of ms on a CPU rasteriser) while it downloads.
if (typeof window !== "undefined") {
  void loadViewer();
  isSoftwareRenderer();
}

/**
 * Renders nothing, on the server too (ssr: true): so Next lists the viewer's chunks in the page's
 * HTML as preloads, and the browser fetches them beside the page's own scripts instead of after
 * those ran (the import above starts only then). Rendered next to LazyModelViewer.
 */
const ViewerCode = dynamic(() => import("./model-viewer").then(() => NoViewer), { ssr: true });

function NoViewer() {
  return null;
}

/** ViewerCode in a Suspense boundary of its own: the page hydrates without waiting for the viewer's chunks. */
export function ViewerCodePreload() {
  return (
    <Suspense fallback={null}>
      <ViewerCode />
    </Suspense>
  );
}

export const LazyModelViewer = dynamic(loadViewer, {
  ssr: false,
  // Fills the box the viewer will fill (a page gives it its size), at least 12rem high.
  loading: () => (
    <div className="flex size-full min-h-48 items-center justify-center bg-viewer text-body text-muted-foreground" role="status">
      Loading viewer…
    </div>
  ),
});

/** The compare page's two linked viewers, loaded on demand like the result viewer. */
export const LazyCompareViewer = dynamic(() => import("./compare-viewer"), {
  ssr: false,
  loading: () => (
    <div className="flex size-full min-h-48 items-center justify-center bg-viewer text-body text-muted-foreground" role="status">
      Loading viewer…
    </div>
  ),
});
