"use client";

import { memo, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { NeutralToneMapping, type Group } from "three";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import type { ModelFormat } from "@/lib/viewer/formats";
import { countMeshStats } from "@/lib/viewer/mesh-stats";
import { isSoftwareRenderer } from "@/lib/viewer/software-renderer";
import { textureSizes } from "@/lib/viewer/texture-sizes";
import { CameraLink } from "@/lib/viewer/camera-link";
import type { ModelPart } from "@/lib/viewer/parts";
import { BACKDROP_COLORS, ModelScene, type PartView } from "./model-scene";
import { ThreeCanvas } from "./three-canvas";
import { useLoadedModel } from "./use-loaded-model";

/** Compared models are shown whole and lit: no part is hidden, coloured or moved. */
const NO_PARTS: readonly ModelPart[] = [];
const WHOLE: PartView = { hidden: new Set(), explode: 0, colours: false };

interface CompareModel {
  url: string;
  format: ModelFormat;
  /** "A", "B": what the stats table calls it. */
  label: string;
}

/** What the viewer measured of a loaded model. */
export interface ModelFacts {
  triangles: number;
  vertices: number;
  textures: string[];
}

interface CompareViewerProps {
  models: readonly [CompareModel, CompareModel];
  /** Called once per model when it is loaded; keep it stable. */
  onFacts(index: 0 | 1, facts: ModelFacts): void;
  /** The stage's box (the two views); the mode buttons sit above it. */
  className?: string;
}

type Mode = "side" | "swipe";

/**
 * Two results with one camera: side by side, or stacked with a draggable divider (swipe).
 * Swipe stacks the two canvases and clips the top one with CSS clip-path rather than
 * rendering both models into one canvas with scissor tests: each model keeps its own
 * renderer and the same scene as the side-by-side mode (switching modes reloads nothing),
 * moving the divider draws no WebGL frame at all, and orbiting either half moves both.
 */
function CompareViewer({ models, onFacts, className = "h-[28rem] w-full" }: CompareViewerProps) {
  const [link] = useState(() => new CameraLink());
  const [mode, setMode] = useState<Mode>("side");
  const [split, setSplit] = useState(50);
  const [drawn, setDrawn] = useState<[boolean, boolean]>([false, false]);
  const stage = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const [onDrawnA] = useState(() => () => setDrawn((d) => [true, d[1]]));
  const [onDrawnB] = useState(() => () => setDrawn((d) => [d[0], true]));

  const moveTo = (clientX: number) => {
    const rect = stage.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return;
    setSplit(Math.min(100, Math.max(0, ((clientX - rect.left) / rect.width) * 100)));
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
    moveTo(e.clientX);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) moveTo(e.clientX);
  };
  const onPointerUp = () => {
    dragging.current = false;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === "ArrowLeft" ? -5 : e.key === "ArrowRight" ? 5 : 0;
    if (step === 0) return;
    e.preventDefault();
    setSplit((s) => Math.min(100, Math.max(0, s + step)));
  };

  const swipe = mode === "swipe";
  const [a, b] = models;
  return (
    <div className="space-y-2" data-testid="compare-viewer" data-mode={mode} data-state={drawn[0] && drawn[1] ? "ready" : "loading"}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <div className="inline-flex rounded-md border border-input bg-muted p-0.5" role="group" aria-label="Compare mode">
          {(["side", "swipe"] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              onClick={() => setMode(m)}
              className={cn(
                buttonVariants({ variant: "ghost", size: "sm" }),
                "text-muted-foreground aria-pressed:bg-background aria-pressed:text-foreground aria-pressed:shadow-sm",
              )}
            >
              {m === "side" ? "Side by side" : "Swipe"}
            </button>
          ))}
        </div>
        <p className="text-caption text-muted-foreground">
          {swipe ? "Drag the divider (or use ← →) to uncover A or B; orbit to turn both." : "Orbit either view: both turn together."}
        </p>
      </div>
      {/* Side by side: next to each other from 640 px, one above the other on a phone. */}
      <div
        ref={stage}
        className={cn(className, swipe ? "relative" : "grid grid-cols-1 grid-rows-2 gap-2 sm:grid-cols-2 sm:grid-rows-1")}
        data-testid="compare-stage"
      >
        <div className={swipe ? "absolute inset-0" : "relative"}>
          <Pane model={a} testId="compare-canvas-a" link={link} onDrawn={onDrawnA} onFacts={onFacts} index={0} />
        </div>
        <div className={swipe ? "absolute inset-0" : "relative"} style={swipe ? { clipPath: `inset(0 0 0 ${split}%)` } : undefined}>
          <Pane model={b} testId="compare-canvas-b" link={link} onDrawn={onDrawnB} onFacts={onFacts} index={1} />
        </div>
        {swipe ? (
          <div
            role="slider"
            tabIndex={0}
            aria-label="Divider between A and B"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(split)}
            data-testid="compare-divider"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
            onKeyDown={onKeyDown}
            className="absolute inset-y-0 z-10 w-4 -translate-x-1/2 cursor-ew-resize touch-none"
            style={{ left: `${split}%` }}
          >
            <div className="mx-auto h-full w-0.5 bg-primary" />
          </div>
        ) : null}
      </div>
    </div>
  );
}

export default CompareViewer;

interface PaneProps {
  model: CompareModel;
  testId: string;
  link: CameraLink;
  index: 0 | 1;
  onDrawn(): void;
  onFacts(index: 0 | 1, facts: ModelFacts): void;
}

/** One model in its own canvas, its camera linked to the other's. Memoised: moving the divider does not re-render it. */
const Pane = memo(function Pane({ model, testId, link, index, onDrawn, onFacts }: PaneProps) {
  const loaded = useLoadedModel(model.url, model.format);
  const [software] = useState(isSoftwareRenderer);
  const root = loaded.status === "ready" ? loaded.model.root : null;
  useEffect(() => {
    if (root) onFacts(index, { ...countMeshStats(root), textures: textureSizes(root) });
  }, [root, index, onFacts]);
  const drawnReported = (drawnRoot: Group) => {
    if (drawnRoot === root) onDrawn();
  };
  return (
    <div
      className="relative size-full min-h-0 overflow-hidden rounded-lg border border-border"
      style={{ backgroundColor: BACKDROP_COLORS.dark }}
    >
      <ThreeCanvas
        frameloop="demand"
        dpr={[1, 2]}
        camera={{ fov: 45, near: 0.1, far: 1000, position: [0, 0, 5] }}
        gl={{ preserveDrawingBuffer: true, antialias: !software, alpha: true, toneMapping: NeutralToneMapping }}
        onCreated={({ gl }) => {
          gl.domElement.setAttribute("data-testid", testId);
          gl.domElement.setAttribute("role", "img");
          gl.domElement.setAttribute("aria-label", `3D view of ${model.label}`);
        }}
      >
        {root ? (
          <ModelScene
            root={root}
            fitKey={model.url}
            environmentLighting={!software}
            wireframe={false}
            clay={false}
            materialView="lit"
            turnSpeed={0}
            backdrop="dark"
            parts={NO_PARTS}
            partView={WHOLE}
            onDrawn={drawnReported}
            link={link}
          />
        ) : null}
      </ThreeCanvas>
      <span
        className={cn(
          "pointer-events-none absolute top-2 rounded-md bg-card/85 px-2 py-0.5 text-caption font-semibold text-foreground backdrop-blur",
          index === 0 ? "left-2" : "right-2",
        )}
      >
        {model.label}
      </span>
      {loaded.status === "error" ? (
        <p role="alert" className="absolute inset-x-2 bottom-2 rounded-md bg-card/90 px-2 py-1 text-body text-destructive">
          {model.label} could not be displayed: {loaded.reason}
        </p>
      ) : !root ? (
        <p role="status" className="absolute bottom-2 left-2 rounded-md bg-card/85 px-2 py-1 text-body text-foreground">
          Loading {model.label}…
        </p>
      ) : null}
    </div>
  );
});
