"use client";

import { useEffect, useRef, useState } from "react";
import { FloatType, RedFormat } from "three";
import { EXRLoader } from "three/examples/jsm/loaders/EXRLoader.js";
import { depthToRgba } from "@/lib/viewer/depth-image";
import type { ImageFormat } from "@/lib/viewer/formats";

type ImageState = { key: string; status: "ready"; width: number; height: number } | { key: string; status: "error"; reason: string };

interface DepthImageViewProps {
  url: string;
  format: ImageFormat;
  className: string;
}

/** A depth map as a picture: PNG and BMP as they are, EXR decoded and drawn to a canvas. */
export function DepthImageView({ url, format, className }: DepthImageViewProps) {
  const [settled, setSettled] = useState<ImageState | null>(null);
  const state = settled?.key === url ? settled : undefined;
  const fail = (reason: string) => setSettled({ key: url, status: "error", reason });

  return (
    <div className={`${className} bg-background`} data-testid="model-viewer" data-state={state?.status ?? "loading"}>
      <div className="flex size-full items-center justify-center">
        {format === "exr" ? (
          <ExrCanvas url={url} onReady={(width, height) => setSettled({ key: url, status: "ready", width, height })} onError={fail} />
        ) : (
          // A plain <img>: depth maps are the service's own PNG/BMP files, no optimisation wanted.
          // eslint-disable-next-line @next/next/no-img-element
          <img
            key={url}
            src={url}
            alt="Depth map"
            data-testid="viewer-image"
            className="max-h-full max-w-full object-contain"
            onLoad={(e) =>
              setSettled({ key: url, status: "ready", width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })
            }
            onError={() => fail("the image could not be loaded")}
          />
        )}
      </div>
      {state?.status === "ready" && (
        <p data-testid="viewer-image-size" className="absolute bottom-2 left-2 rounded bg-card/80 px-2 py-1 text-xs text-foreground/85">
          {`${state.width} × ${state.height} depth map (${format.toUpperCase()})`}
        </p>
      )}
      {!state && (
        <p role="status" className="absolute inset-0 flex items-center justify-center text-sm text-muted-foreground">
          Loading model…
        </p>
      )}
      {state?.status === "error" && (
        <p role="alert" className="absolute inset-x-6 top-1/2 -translate-y-1/2 text-center text-sm text-destructive">
          This model could not be displayed: {state.reason}
        </p>
      )}
    </div>
  );
}

function ExrCanvas({ url, onReady, onError }: { url: string; onReady(w: number, h: number): void; onError(reason: string): void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // The callbacks change every render; the effect should run per URL only.
  const callbacks = useRef({ onReady, onError });
  useEffect(() => {
    callbacks.current = { onReady, onError };
  });

  useEffect(() => {
    const abort = new AbortController();
    (async () => {
      const res = await fetch(url, { signal: abort.signal });
      if (!res.ok) throw new Error(`the file could not be fetched (HTTP ${res.status})`);
      const buffer = await res.arrayBuffer();
      const exr = new EXRLoader().setDataType(FloatType).setOutputFormat(RedFormat).parse(buffer);
      const { width = 0, height = 0, data } = exr;
      if (!data || !width || !height) throw new Error("the EXR file holds no image");
      // EXRLoader returns rows bottom-up, ready for WebGL; a 2D canvas wants them top-down.
      const pixels = depthToRgba({ width, height, data, channels: 1 }, true);
      const el = canvas.current;
      const ctx = el?.getContext("2d");
      if (!el || !ctx || abort.signal.aborted) return;
      el.width = width;
      el.height = height;
      ctx.putImageData(new ImageData(pixels, width, height), 0, 0);
      callbacks.current.onReady(width, height);
    })().catch((e: unknown) => {
      if (abort.signal.aborted) return;
      const msg = e instanceof Error ? e.message.replace(/^THREE\.\w+:\s*/, "") : "";
      callbacks.current.onError(msg || "the EXR file could not be decoded");
    });
    return () => abort.abort();
  }, [url]);

  return (
    <canvas ref={canvas} data-testid="viewer-image" aria-label="Depth map" role="img" className="max-h-full max-w-full object-contain" />
  );
}
