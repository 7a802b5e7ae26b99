"use client";

import { LazyModelViewer } from "@/components/viewer";
import { formatFromExtension } from "@/lib/viewer/formats";

interface Props {
  /** The studio's own file route, never the service's link. */
  url: string;
  /** The stored result's extension. */
  format: string;
  className?: string;
  /** What a screenshot is named after. */
  name?: string;
}

/** The task result in the 3D viewer (or the depth image); formats the viewer cannot draw say so. */
export function ResultViewer({ url, format, className, name }: Props) {
  const viewerFormat = formatFromExtension(format);
  if (!viewerFormat) {
    return (
      <div className={`flex items-center justify-center rounded-lg border border-neutral-800 text-sm text-neutral-400 ${className ?? ""}`}>
        This {format.toUpperCase()} file cannot be previewed here; download it instead.
      </div>
    );
  }
  return <LazyModelViewer url={url} format={viewerFormat} className={className} name={name} />;
}
