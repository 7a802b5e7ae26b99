"use client";

import {
  createRoot,
  events as createPointerEvents,
  extend,
  type ReconcilerRoot,
  type RenderProps,
  type RootState,
  type Size,
} from "@react-three/fiber";
import { FiberProvider, traverseFiber, useActivityBridge, useContextBridge, useFiber } from "its-fine";
import {
  Component,
  Fragment,
  StrictMode,
  Suspense,
  use,
  useCallback,
  useEffect,
  useInsertionEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
  type RefObject,
} from "react";
import { VIEWER_THREE_CLASSES } from "./three-catalogue";

// Only the classes the viewer's JSX draws: R3F's <Canvas> registers `import * as THREE` whole
// (extend(THREE)), which keeps all of three.js in the page however little of it is used.
extend(VIEWER_THREE_CLASSES);

type Passed = "gl" | "camera" | "dpr" | "frameloop" | "onPointerMissed";

export interface ThreeCanvasProps extends Pick<RenderProps<HTMLCanvasElement>, Passed> {
  children?: ReactNode;
  /** Called once the renderer, scene and camera exist, before the first frame. */
  onCreated?(state: RootState): void;
  /** Where pointer events are listened for; the wrapper div by default. */
  eventSource?: HTMLElement | RefObject<HTMLElement | null>;
  /** Shown inside <canvas> where WebGL canvases are not drawn (its accessible content). */
  fallback?: ReactNode;
  className?: string;
  style?: CSSProperties;
}

/**
 * React-three-fiber's <Canvas>, with the same behaviour for what the viewer uses, on R3F's
 * public API (createRoot, events, extend) instead: sized to its container (a ResizeObserver),
 * dpr, camera, gl options, frameloop, onCreated, onPointerMissed, an event source; a scene that
 * suspends suspends the canvas (the nearest <Suspense> outside shows its fallback) and an error
 * inside it is thrown to the error boundaries outside; the context of the tree around it
 * reaches the scene (its-fine's bridge); the renderer is released when the canvas is removed.
 * See node_modules/@react-three/fiber/dist/react-three-fiber.esm.js, which this follows.
 */
export function ThreeCanvas(props: ThreeCanvasProps) {
  return (
    <FiberProvider>
      <CanvasImpl {...props} />
    </FiberProvider>
  );
}

function CanvasImpl({
  children,
  onCreated,
  eventSource,
  fallback,
  className,
  style,
  gl,
  camera,
  dpr,
  frameloop,
  onPointerMissed,
}: ThreeCanvasProps) {
  const Bridge = useBridge();
  const [containerRef, size] = useSize();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const divRef = useRef<HTMLDivElement>(null);
  const root = useRef<ReconcilerRoot<HTMLCanvasElement> | null>(null);
  const rootState = useRef<(() => RootState) | null>(null);
  // The latest callbacks, so new ones do not reconfigure the root.
  const latest = useRef({ onCreated, onPointerMissed, eventSource });
  useLayoutEffect(() => {
    latest.current = { onCreated, onPointerMissed, eventSource };
  });
  const pointerMissed = useCallback((event: MouseEvent) => latest.current.onPointerMissed?.(event), []);
  const [block, setBlock] = useState<Promise<never> | false>(false);
  const [error, setError] = useState<unknown>(null);
  const [gate, waitFor] = useGate();

  // Insertion effects survive Activity hiding and StrictMode's replayed effects: only the
  // canvas's final removal releases the root (and its WebGL context).
  useInsertionEffect(
    () => () => {
      const current = root.current;
      root.current = null;
      current?.unmount();
    },
    [],
  );

  // After every render, as R3F's Canvas does: the scene follows the new children, and a render
  // that found the renderer still pending (an asynchronous gl) runs this again once it lands.
  // setError is only called when configuration fails, not on every run.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !size || size.width <= 0 || size.height <= 0) return;
    const target = () => resolveSource(latest.current.eventSource) ?? divRef.current;
    root.current ??= createRoot(canvas);
    root.current
      .configure({
        gl,
        camera,
        dpr,
        frameloop,
        events: createPointerEvents,
        size,
        onPointerMissed: pointerMissed,
        onCreated: (state) => {
          rootState.current = state.get;
          const source = target();
          if (source) state.events.connect?.(source);
          latest.current.onCreated?.(state);
        },
      })
      .catch(setError);
    if (root.current.ready.status === "fulfilled") {
      root.current.render(
        <Bridge>
          <SceneErrorBoundary set={setError}>
            <Suspense fallback={<Block set={setBlock} />}>{children ?? null}</Suspense>
          </SceneErrorBoundary>
        </Bridge>,
      );
    } else if (root.current.ready.status === "pending") {
      waitFor(root.current.ready);
    }
  });

  // A ref to an ancestor as the event source is attached after the layout effect above.
  useEffect(() => {
    const state = rootState.current?.();
    const source = resolveSource(eventSource) ?? divRef.current;
    if (state && source && state.events.connected !== source) state.events.connect?.(source);
  });

  // Before React 19.2, a subtree hidden by Suspense keeps its passive effects but skips its
  // insertion cleanups: a canvas that left the document was removed, not hidden.
  useEffect(() => {
    const canvas = canvasRef.current;
    return () => {
      if (canvas && !canvas.isConnected) root.current?.unmount();
    };
  }, []);

  // A scene that suspends suspends this component; an error inside it is thrown out of it.
  if (block) throw block;
  if (error) throw error;

  return (
    <div
      ref={divRef}
      className={className}
      style={{
        position: "relative",
        width: "100%",
        height: "100%",
        overflow: "hidden",
        // Another element listens: the canvas must not take its events.
        pointerEvents: eventSource ? "none" : "auto",
        ...style,
      }}
    >
      <div ref={containerRef} style={{ width: "100%", height: "100%" }}>
        <canvas ref={canvasRef} style={{ display: "block" }}>
          {fallback}
        </canvas>
      </div>
      {gate}
    </div>
  );
}

function resolveSource(source: ThreeCanvasProps["eventSource"]): HTMLElement | null {
  if (!source) return null;
  return "current" in source ? source.current : source;
}

/**
 * The container's size and place on the page, measured when it is laid out and whenever it is
 * resized (R3F's Canvas uses react-use-measure for the same; the scenes read width and height).
 */
function useSize(): [RefObject<HTMLDivElement | null>, Size | null] {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<Size | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const { width, height, top, left } = element.getBoundingClientRect();
      setSize((old) =>
        old && old.width === width && old.height === height && old.top === top && old.left === left ? old : { width, height, top, left },
      );
    };
    measure(); // at once: the first frame need not wait for the observer's first report
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, size];
}

/** Context, StrictMode and Activity visibility of the tree around the canvas, carried into its scene. */
function useBridge() {
  const fiber = useFiber();
  const ContextBridge = useContextBridge();
  const ActivityBridge = useActivityBridge();
  return useMemo(
    () =>
      function Bridge({ children }: { children: ReactNode }) {
        const strict = !!traverseFiber(fiber, true, (node) => node.type === StrictMode);
        const Root = strict ? StrictMode : Fragment;
        return (
          <Root>
            <ActivityBridge>
              <ContextBridge>{children}</ContextBridge>
            </ActivityBridge>
          </Root>
        );
      },
    [fiber, ContextBridge, ActivityBridge],
  );
}

/** While the scene suspends, the canvas suspends too (its state holds a promise that never settles). */
function Block({ set }: { set(block: Promise<never> | false): void }) {
  useLayoutEffect(() => {
    set(new Promise<never>(() => undefined));
    return () => set(false);
  }, [set]);
  return null;
}

/** Catches what the scene throws and hands it to the canvas, which throws it in the page's tree. */
class SceneErrorBoundary extends Component<{ set(error: unknown): void; children: ReactNode }, { error: boolean }> {
  state = { error: false };
  static getDerivedStateFromError() {
    return { error: true };
  }
  componentDidCatch(error: unknown) {
    this.props.set(error);
  }
  render() {
    return this.state.error ? null : this.props.children;
  }
}

/** Waits for an asynchronous renderer without hiding the canvas: re-renders the caller once `ready` settles. */
function useGate(): [ReactNode, (promise: PromiseLike<unknown>) => void] {
  const [promise, setPromise] = useState<Promise<void> | null>(null);
  const onSettled = useCallback(() => setPromise(null), []);
  const waitFor = useCallback(
    (next: PromiseLike<unknown>) =>
      setPromise(
        (current) =>
          current ??
          Promise.resolve(next).then(
            () => undefined,
            () => undefined,
          ),
      ),
    [],
  );
  const gate = promise ? (
    <Suspense fallback={null}>
      <Gate promise={promise} onSettled={onSettled} />
    </Suspense>
  ) : null;
  return [gate, waitFor];
}

function Gate({ promise, onSettled }: { promise: Promise<void>; onSettled(): void }) {
  use(promise);
  useLayoutEffect(onSettled, [onSettled]);
  return null;
}
