"use client";

import { Canvas } from "@react-three/fiber";
import { useCallback, useMemo, useRef, useState } from "react";
import { NeutralToneMapping, type WebGLRenderer } from "three";
import { isImageFormat, screenshotName, type ModelFormat, type ViewerFormat } from "@/lib/viewer/formats";
import { countMeshStats, formatMeshStats } from "@/lib/viewer/mesh-stats";
import { checkerStyle } from "./checker";
import { DepthImageView } from "./depth-image-view";
import { BACKDROP_COLORS, ModelScene, type Backdrop } from "./model-scene";
import { useLoadedModel } from "./use-loaded-model";
import { nextBackdrop, ViewerToolbar } from "./viewer-toolbar";

export interface ModelViewerProps {
  /** Where the result is served from (the studio's own file route, never the service's link). */
  url: string;
  /** The result's extension: a mesh format, "zip" for OBJ with textures, or a depth image. */
  format: ViewerFormat;
  className?: string;
  /** File name the screenshot is named after; defaults to the URL's. */
  name?: string;
}

const frame = "relative overflow-hidden rounded-lg border border-neutral-800";

/** Shows a task's result: a 3D model with orbit controls, or a depth map as a picture. */
export function ModelViewer({ url, format, className = "h-[480px] w-full", name }: ModelViewerProps) {
  if (isImageFormat(format)) return <DepthImageView url={url} format={format} className={`${frame} ${className}`} />;
  return <MeshViewer url={url} format={format} className={`${frame} ${className}`} name={name ?? url} />;
}

export default ModelViewer;

function MeshViewer({ url, format, className, name }: { url: string; format: ModelFormat; className: string; name: string }) {
  const state = useLoadedModel(url, format);
  const [wireframe, setWireframe] = useState(false);
  const [clay, setClay] = useState(false);
  const [backdrop, setBackdrop] = useState<Backdrop>("dark");
  const gl = useRef<WebGLRenderer | null>(null);

  const model = state.status === "ready" ? state.model : undefined;
  const stats = useMemo(() => (model ? formatMeshStats(countMeshStats(model.root)) : ""), [model]);

  const screenshot = useCallback(() => {
    const canvas = gl.current?.domElement;
    if (!canvas) return;
    // preserveDrawingBuffer keeps the last frame readable between renders.
    const a = document.createElement("a");
    a.href = canvas.toDataURL("image/png");
    a.download = screenshotName(name);
    a.click();
  }, [name]);

  return (
    <div
      className={className}
      data-testid="model-viewer"
      data-state={state.status}
      style={backdrop === "transparent" ? checkerStyle() : { backgroundColor: BACKDROP_COLORS[backdrop] }}
    >
      <Canvas
        frameloop="demand"
        dpr={[1, 2]}
        camera={{ fov: 45, near: 0.1, far: 1000, position: [0, 0, 5] }}
        gl={{ preserveDrawingBuffer: true, antialias: true, alpha: true, toneMapping: NeutralToneMapping }}
        onCreated={({ gl: renderer }) => {
          gl.current = renderer;
          // The testid and label go on the <canvas> itself (Canvas puts its props on a wrapper).
          renderer.domElement.setAttribute("data-testid", "viewer-canvas");
          renderer.domElement.setAttribute("role", "img");
          renderer.domElement.setAttribute("aria-label", "3D view of the result");
        }}
      >
        {model && <ModelScene root={model.root} wireframe={wireframe} clay={clay} backdrop={backdrop} />}
      </Canvas>

      <div className="pointer-events-none absolute inset-x-2 top-2 flex justify-end">
        <div className="pointer-events-auto">
          <ViewerToolbar
            wireframe={wireframe}
            clay={clay}
            backdrop={backdrop}
            canScreenshot={!!model}
            onWireframe={() => setWireframe((w) => !w)}
            onClay={() => setClay((c) => !c)}
            onBackdrop={() => setBackdrop(nextBackdrop)}
            onScreenshot={screenshot}
          />
        </div>
      </div>

      {model && (
        <p data-testid="viewer-stats" className="absolute bottom-2 left-2 rounded bg-neutral-900/80 px-2 py-1 text-xs text-neutral-300">
          {stats}
        </p>
      )}
      {state.status !== "ready" && (
        <div className="absolute inset-0 flex items-center justify-center p-6 text-center text-sm">
          {state.status === "loading" ? (
            <p role="status" className="text-neutral-400">
              Loading model…
            </p>
          ) : (
            <p role="alert" className="max-w-md rounded bg-neutral-900/90 px-3 py-2 text-red-300">
              This model could not be displayed: {state.reason}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
