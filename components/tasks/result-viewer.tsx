"use client";

import { preload } from "react-dom";
import { LazyModelViewer } from "@/components/viewer";
import type { DisplayView } from "@/lib/tasks/queries";
import { ENV_MAP_URL } from "@/lib/viewer/assets";
import { formatFromExtension, isImageFormat } from "@/lib/viewer/formats";
import type { PrintSizing } from "@/lib/viewer/print-size";

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
}

/**
 * The task result in the 3D viewer (or the depth image); formats the viewer cannot draw say
 * so. The viewer shows the GLB display copy (preview first for large models) when there is
 * one, else the original; its download starts with the page, not after the viewer's code.
 */
export function ResultViewer({ url, format, display, className, name, sizing }: Props) {
  if (display.pending) {
    return (
      <div
        role="status"
        className={`flex items-center justify-center rounded-lg border border-border text-sm text-muted-foreground ${className ?? ""}`}
      >
        Preparing the 3D view…
      </div>
    );
  }
  const viewerFormat = display.url ? "glb" : formatFromExtension(format);
  if (!viewerFormat) {
    return (
      <div className={`flex items-center justify-center rounded-lg border border-border text-sm text-muted-foreground ${className ?? ""}`}>
        This {format.toUpperCase()} file cannot be previewed here; download it instead.
      </div>
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
    <LazyModelViewer
      key={shown}
      url={shown}
      format={viewerFormat}
      previewUrl={display.previewUrl}
      className={className}
      name={name}
      sizing={sizing}
    />
  );
}
