"use client";

import { Loader2 } from "lucide-react";
import { preload } from "react-dom";
import { cn } from "@/components/ui/cn";
import { LazyModelViewer, ViewerCodePreload, type ViewerPanels } from "@/components/viewer";
import type { DisplayView } from "@/lib/tasks/model/task-view";
import { ENV_MAP_URL } from "@/lib/viewer/assets";
import { formatFromExtension, isImageFormat, type ViewerFormat } from "@/lib/viewer/formats";
import type { PrintSizing } from "@/lib/viewer/task-sizing";

interface Props {
  /** The studio's own file route, never the service's link. */
  url: string;
  /** The stored result's extension. */
  format: string;
  /** The viewer's light copies of the result, when the studio derived them. */
  display: DisplayView;
  className?: string;
  /** What a screenshot and the print files are named after. */
  name?: string;
  /** How the model is measured in mm (printSizing of the task). */
  sizing?: PrintSizing;
  /** Where the print panel and the part list go (a page's side panel); see ModelViewer. */
  panels?: ViewerPanels;
}

const placeholder =
  "flex items-center justify-center gap-2 rounded-lg border border-border bg-viewer p-6 text-center text-body text-muted-foreground";

/**
 * The task result in the 3D viewer (or the depth image); formats the viewer cannot draw say
 * so. The viewer shows the GLB display copy (preview first for large models) when there is
 * one, else the original; its download starts with the page, not after the viewer's code.
 */
export function ResultViewer({ url, format, display, className, name, sizing, panels }: Props) {
  if (display.pending) {
    return (
      <div role="status" className={cn(placeholder, className)}>
        <Loader2 className="size-4 animate-spin" aria-hidden />
        Preparing the 3D view…
      </div>
    );
  }
  const viewerFormat = viewerFormatOf(format, display);
  if (!viewerFormat) {
    return (
      <div className={cn(placeholder, className)}>This {format.toUpperCase()} file cannot be previewed here; download it instead.</div>
    );
  }
  const shown = display.url ?? url;
  if (viewerFormat === "png" || viewerFormat === "bmp") {
    preload(shown, { as: "image" }); // drawn by an <img>
  } else {
    // crossOrigin "anonymous" is what fetch() uses for a same-origin request, so the viewer's fetches reuse these downloads.
    const asFetch = { as: "fetch", crossOrigin: "anonymous" } as const;
    if (display.previewUrl) preload(display.previewUrl, asFetch);
    preload(shown, asFetch);
    if (!isImageFormat(viewerFormat)) preload(ENV_MAP_URL, asFetch);
  }
  return (
    <>
      <ViewerCodePreload />
      <LazyModelViewer
        key={shown}
        url={shown}
        format={viewerFormat}
        previewUrl={display.previewUrl}
        className={className}
        name={name}
        sizing={sizing}
        panels={panels}
      />
    </>
  );
}

/** What the viewer draws for a result: its GLB display copy when there is one, else the stored format (null: nothing it can draw). */
export function viewerFormatOf(format: string, display: DisplayView): ViewerFormat | null {
  return display.url ? "glb" : formatFromExtension(format);
}
