"use client";

import { Loader2 } from "lucide-react";
import { lazy, Suspense, useCallback, useMemo, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { cn } from "@/components/ui/cn";
import { NeutralToneMapping, type Group, type Vector3, type WebGLRenderer } from "three";
import { isImageFormat, screenshotName, type ModelFormat, type ViewerFormat } from "@/lib/viewer/formats";
import { formatLength } from "@/lib/viewer/measure";
import type { MaterialView } from "@/lib/viewer/material-views";
import { findParts } from "@/lib/viewer/parts";
import { AUTO_ROTATE_SECONDS, TURNTABLE_SECONDS, turntableName } from "@/lib/viewer/turntable";
import { countMeshStats, formatMeshStats } from "@/lib/viewer/mesh-stats";
import { mmPerUnit } from "@/lib/viewer/print-size";
import type { PrintSizing } from "@/lib/viewer/task-sizing";
import { isSoftwareRenderer } from "@/lib/viewer/software-renderer";
import { checkerStyle } from "./checker";
import { BACKDROP_COLORS, ModelScene, type Backdrop, type PartView } from "./model-scene";
import { mark } from "./load-model";
import { MeasureScene } from "./measure-scene";
import { ThreeCanvas } from "./three-canvas";
import { useLoadedModel, viewerState } from "./use-loaded-model";
import { useExtractedTriangles, useStoredHeight } from "./viewer-hooks";
import { nextBackdrop, ViewerToolbar } from "./viewer-toolbar";

export interface ModelViewerProps {
  /** Where the result is served from (the studio's own file route, never the service's link). */
  url: string;
  /** The file's extension: a mesh format, "zip" for OBJ with textures, or a depth image. */
  format: ViewerFormat;
  /** A light GLB drawn first while `url` loads (large models). */
  previewUrl?: string | null;
  className?: string;
  /** File name the screenshot is named after; defaults to the URL's. */
  name?: string;
  /** How the model is measured in mm: a relief by its width option, anything else by a chosen height. */
  sizing?: PrintSizing;
  /**
   * Elements outside the viewer to show its panels in (a page's side panel): the print panel and
   * the part list. Without it, the print panel follows the viewer and the part list lies over it.
   */
  panels?: ViewerPanels;
}

/** Where the viewer's panels go; an element still null (not yet mounted) shows nothing yet. */
export interface ViewerPanels {
  print?: HTMLElement | null;
  parts?: HTMLElement | null;
}

// The tools load when first shown, after the model's first picture, not with the viewer: the
// print panel when its tab (or, without panels, the viewer) shows, the part list for a model
// with parts, the recorder on its button's first press (e2e/viewer-chunks.spec.ts).
const PrintPanel = lazy(() => import("./print-panel").then((m) => ({ default: m.PrintPanel })));
const PartList = lazy(() => import("./part-list").then((m) => ({ default: m.PartList })));
// A depth image (and EXR's loader) is drawn by a chunk of its own, as each model format's loader is.
const DepthImageView = lazy(() => import("./depth-image-view").then((m) => ({ default: m.DepthImageView })));

const NO_PART_VIEW: PartView = { hidden: new Set(), explode: 0, colours: false };

const frame =
  "relative overflow-hidden rounded-lg border border-border bg-viewer " +
  "[&_canvas]:outline-none [&_canvas:focus-visible]:outline-2 [&_canvas:focus-visible]:outline-solid [&_canvas:focus-visible]:-outline-offset-2 [&_canvas:focus-visible]:outline-ring";

/** Shows a task's result: a 3D model with orbit controls, or a depth map as a picture. */
export default function ModelViewer({ url, format, previewUrl, className = "h-[480px] w-full", name, sizing, panels }: ModelViewerProps) {
  if (isImageFormat(format))
    return (
      <Suspense fallback={<div className={cn(frame, className)} />}>
        <DepthImageView url={url} format={format} className={cn(frame, className)} />
      </Suspense>
    );
  return (
    <MeshViewer
      url={url}
      format={format}
      previewUrl={previewUrl ?? null}
      className={cn(frame, className)}
      name={name ?? url}
      sizing={sizing ?? { kind: "height" }}
      panels={panels}
    />
  );
}

interface MeshViewerProps {
  url: string;
  format: ModelFormat;
  previewUrl: string | null;
  className: string;
  name: string;
  sizing: PrintSizing;
  panels: ViewerPanels | undefined;
}

/**
 * A model with orbit controls. With a preview, both load at once: the preview is drawn as
 * soon as it arrives (data-state "preview"), then replaced by full detail ("ready").
 */
function MeshViewer({ url, format, previewUrl, className, name, sizing, panels }: MeshViewerProps) {
  const [drawn, setDrawn] = useState<Group | null>(null);
  // Once the preview was on screen, the viewer says "preview" until full detail is drawn.
  const [previewShown, setPreviewShown] = useState(false);
  const [fullShown, setFullShown] = useState(false);
  const preview = useLoadedModel(previewUrl && !fullShown ? previewUrl : null, "glb");
  // Full detail is fetched from the cache and parsed once the preview is on screen (or failed):
  // both downloads started with the page, but reading and parsing full detail during the
  // preview's first frame holds that frame back (on a CPU rasteriser they share the cores).
  const full = useLoadedModel(!previewUrl || previewShown || preview.status === "error" || fullShown ? url : null, format);
  if (full.status === "ready" && !fullShown) setFullShown(true);
  const [wireframe, setWireframe] = useState(false);
  const [clay, setClay] = useState(false);
  const [materialView, setMaterialView] = useState<MaterialView>("lit");
  const [autoRotate, setAutoRotate] = useState(false);
  const [recording, setRecording] = useState<number | null>(null);
  const [recordError, setRecordError] = useState<string | null>(null);
  const [backdrop, setBackdrop] = useState<Backdrop>("dark");
  const gl = useRef<WebGLRenderer | null>(null);
  // On a CPU rasteriser, no MSAA and no image-based lighting: each costs seconds per frame there.
  const [software] = useState(isSoftwareRenderer);

  const model = full.status === "ready" ? full.model : preview.status === "ready" ? preview.model : undefined;
  const state = viewerState(full, preview, drawn, previewShown);
  const onDrawn = (root: Group) => {
    mark("drawn", full.status === "ready" && root === full.model.root ? url : (previewUrl ?? url));
    setDrawn(root);
    if (preview.status === "ready" && root === preview.model.root) setPreviewShown(true);
  };
  const stats = useMemo(() => (model ? formatMeshStats(countMeshStats(model.root)) : ""), [model]);
  // Kept by name: the preview's choices carry over to full detail.
  const parts = useMemo(() => (model ? findParts(model.root) : []), [model]);
  const partNames = useMemo(() => parts.map((p) => p.name), [parts]);
  const [partView, setPartView] = useState<PartView>(NO_PART_VIEW);
  // Measured and exported from full detail only (the preview is simplified), once it is on
  // screen: flattening 2M triangles must not hold back its first frame.
  const fullModel = full.status === "ready" && state === "ready" ? full.model : null;
  // Measured as the file places its parts: not while they are exploded apart.
  const triangles = useExtractedTriangles(fullModel?.root ?? null, partView.explode === 0);
  const [heightMm, setHeightMm] = useStoredHeight(url);
  const [grid, setGrid] = useState(true);
  const [measuring, setMeasuring] = useState(false);
  const [picked, setPicked] = useState<{ root: Group; points: Vector3[] } | null>(null);
  const points = picked && picked.root === fullModel?.root ? picked.points : [];
  const scaleBarRef = useRef<HTMLDivElement>(null);
  const onPick = useCallback(
    (p: Vector3) => {
      if (!fullModel) return;
      setPicked((prev) => {
        const kept = prev && prev.root === fullModel.root && prev.points.length === 1 ? prev.points : [];
        return { root: fullModel.root, points: [...kept, p] };
      });
    },
    [fullModel],
  );
  const scale = triangles
    ? mmPerUnit(
        sizing,
        [triangles.max[0] - triangles.min[0], triangles.max[1] - triangles.min[1], triangles.max[2] - triangles.min[2]],
        heightMm,
      )
    : 1;

  const screenshot = useCallback(() => {
    const canvas = gl.current?.domElement;
    if (!canvas) return;
    // preserveDrawingBuffer keeps the last frame readable between renders.
    const a = document.createElement("a");
    a.href = canvas.toDataURL("image/png");
    a.download = screenshotName(name);
    a.click();
  }, [name]);

  const record = useCallback(async () => {
    const canvas = gl.current?.domElement;
    if (!canvas) return;
    setRecordError(null);
    setRecording(TURNTABLE_SECONDS);
    const started = Date.now();
    const tick = setInterval(() => setRecording(Math.max(1, Math.ceil(TURNTABLE_SECONDS - (Date.now() - started) / 1000))), 250);
    try {
      const { recordCanvas } = await import("./record-turntable");
      const video = await recordCanvas(canvas, TURNTABLE_SECONDS);
      const a = document.createElement("a");
      a.href = URL.createObjectURL(video);
      a.download = turntableName(screenshotName(name));
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    } catch (e) {
      setRecordError(e instanceof Error ? e.message : String(e));
    } finally {
      clearInterval(tick);
      setRecording(null);
    }
  }, [name]);
  // The tools' code is fetched once the first picture is on screen: it must not delay it.
  const toolsShown = state !== "loading";
  const overlayParts = !panels && partNames.length > 0 && toolsShown;
  // Without panels the print panel is a card under the viewer: a card of the same frame holds its place.
  const printPlaceholder = panels ? null : <PrintPanelPlaceholder />;
  const printPanel = toolsShown ? (
    <Suspense fallback={printPlaceholder}>
      <PrintPanel
        model={triangles}
        sizing={sizing}
        scale={scale}
        heightMm={heightMm}
        onHeightMm={setHeightMm}
        name={screenshotName(name).replace(/\.png$/, "")}
        framed={!panels}
      />
    </Suspense>
  ) : (
    printPlaceholder
  );
  // One full turn while recording, a slow one with auto-rotate.
  const turnSpeed = recording !== null ? (2 * Math.PI) / TURNTABLE_SECONDS : autoRotate ? (2 * Math.PI) / AUTO_ROTATE_SECONDS : 0;

  return (
    <>
      <div
        className={className}
        data-testid="model-viewer"
        data-state={state}
        style={backdrop === "transparent" ? checkerStyle() : { backgroundColor: BACKDROP_COLORS[backdrop] }}
      >
        <ThreeCanvas
          frameloop="demand"
          dpr={[1, 2]}
          camera={{ fov: 45, near: 0.1, far: 1000, position: [0, 0, 5] }}
          gl={{ preserveDrawingBuffer: true, antialias: !software, alpha: true, toneMapping: NeutralToneMapping }}
          onCreated={({ gl: renderer }) => {
            gl.current = renderer;
            // The testid and label go on the <canvas> itself (ThreeCanvas puts its props on a wrapper).
            renderer.domElement.setAttribute("data-testid", "viewer-canvas");
            renderer.domElement.setAttribute("role", "img");
            renderer.domElement.setAttribute("aria-label", "3D view of the result");
            // Focusable, so the arrow keys and + / − can orbit and zoom (model-scene's KeyboardOrbit).
            renderer.domElement.tabIndex = 0;
            renderer.domElement.setAttribute("aria-keyshortcuts", "ArrowLeft ArrowRight ArrowUp ArrowDown + -");
          }}
        >
          {model && (
            <ModelScene
              root={model.root}
              fitKey={url}
              environmentLighting={!software}
              wireframe={wireframe}
              clay={clay}
              materialView={materialView}
              turnSpeed={turnSpeed}
              backdrop={backdrop}
              parts={parts}
              partView={partView}
              onDrawn={onDrawn}
            />
          )}
          {fullModel && triangles && (
            <MeasureScene
              root={fullModel.root}
              model={partView.explode === 0 && partView.hidden.size === 0 ? triangles : null}
              scale={scale}
              min={triangles.min}
              max={triangles.max}
              grid={grid}
              measuring={measuring}
              points={points}
              onPick={onPick}
              scaleBarRef={scaleBarRef}
            />
          )}
        </ThreeCanvas>

        {/* With the part list lying on the left, the toolbar keeps to the right of it. */}
        <ViewerToolbar
          className={cn("absolute top-2 right-2", overlayParts ? "left-58" : "left-2")}
          wireframe={wireframe}
          clay={clay}
          backdrop={backdrop}
          canScreenshot={!!model}
          materialView={materialView}
          onMaterialView={setMaterialView}
          autoRotate={autoRotate}
          onAutoRotate={() => setAutoRotate((r) => !r)}
          recording={recording}
          onRecord={() => void record()}
          onWireframe={() => setWireframe((w) => !w)}
          onClay={() => setClay((c) => !c)}
          onBackdrop={() => setBackdrop(nextBackdrop)}
          onScreenshot={screenshot}
          grid={grid}
          measuring={measuring}
          canMeasure={!!triangles}
          onGrid={() => setGrid((g) => !g)}
          onMeasure={() => {
            setMeasuring((m) => !m);
            setPicked(null);
          }}
        />

        {recordError && (
          <p
            role="alert"
            className="absolute top-14 left-2 max-w-[calc(100%-1rem)] rounded-md bg-card/90 px-2 py-1 text-caption text-destructive"
          >
            The turntable could not be recorded: {recordError}
          </p>
        )}
        {overlayParts && (
          <div className="absolute top-2 left-2">
            <Suspense fallback={null}>
              <PartList names={partNames} view={partView} onChange={setPartView} />
            </Suspense>
          </div>
        )}

        {model && (
          <p
            data-testid="viewer-stats"
            className="absolute bottom-2 left-2 max-w-[calc(100%-9rem)] rounded-md bg-card/85 px-2 py-1 text-caption text-foreground backdrop-blur"
          >
            {stats}
            {state === "preview" ? " · preview, loading full detail…" : ""}
          </p>
        )}
        {triangles ? (
          <div className="pointer-events-none absolute right-2 bottom-2 flex flex-col items-end gap-1 text-caption text-foreground">
            {measuring ? (
              <p data-testid="measure-distance" className="rounded-md bg-card/85 px-2 py-1 backdrop-blur">
                {points.length === 2 && points[0] && points[1]
                  ? `Distance: ${formatLength(points[0].distanceTo(points[1]) * scale)}`
                  : points.length === 1
                    ? "Click a second point"
                    : "Click two points on the model"}
              </p>
            ) : null}
            {/* On a pill of the card's colour: readable over any backdrop, in either theme. */}
            <div className="rounded-md bg-card/85 px-2 pt-0.5 pb-1 backdrop-blur">
              <div
                data-testid="scale-bar"
                ref={scaleBarRef}
                className="border-x-2 border-b-2 border-foreground text-center"
                style={{ width: 0 }}
              >
                <span />
              </div>
            </div>
          </div>
        ) : null}
        {full.status === "error" ? (
          <div className="absolute inset-0 flex items-center justify-center p-6 text-center text-body">
            <p role="alert" className="max-w-md rounded-md bg-card/90 px-3 py-2 text-destructive">
              This model could not be displayed: {full.reason}
            </p>
          </div>
        ) : !model ? (
          <div className="pointer-events-none absolute inset-0 flex items-center justify-center p-6 text-center text-body">
            <p role="status" className="flex items-center gap-2 rounded-md bg-card/85 px-3 py-2 text-foreground">
              <Loader2 className="size-4 animate-spin" aria-hidden />
              Loading model…
            </p>
          </div>
        ) : null}
      </div>
      {panels ? (
        <>
          {panels.print ? createPortal(printPanel, panels.print) : null}
          {panels.parts
            ? createPortal(
                partNames.length > 0 ? (
                  // Until its code is in, the tab's own note ("Loading the model…") shows.
                  toolsShown ? (
                    <Suspense fallback={null}>
                      <PartList names={partNames} view={partView} onChange={setPartView} variant="panel" />
                    </Suspense>
                  ) : null
                ) : (
                  <p className="text-body text-muted-foreground" data-testid="no-parts">
                    {model ? "This model is one piece: it has no named parts." : "Looking for parts…"}
                  </p>
                ),
                panels.parts,
              )
            : null}
        </>
      ) : (
        printPanel
      )}
    </>
  );
}

/** Holds the print panel's place under the viewer while its code loads: the same card, one line. */
function PrintPanelPlaceholder() {
  return (
    <section aria-label="Size and printability" className="rounded-lg border border-border p-4 text-body text-muted-foreground">
      <p role="status" className="flex items-center gap-2">
        <Loader2 className="size-4 animate-spin" aria-hidden />
        Measuring the model…
      </p>
    </section>
  );
}
