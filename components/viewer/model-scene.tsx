"use client";

import { OrbitControls } from "@react-three/drei";
import { useFrame, useThree } from "@react-three/fiber";
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type ComponentRef,
  type RefObject,
} from "react";
import { Box3, PerspectiveCamera, PMREMGenerator, Vector3, type Group, type Texture } from "three";
import { ENV_MAP_URL } from "@/lib/viewer/assets";
import { fitCamera, type CameraFit } from "@/lib/viewer/camera-fit";
import type { CameraLink, LinkedView } from "@/lib/viewer/camera-link";
import { DisplayModes } from "@/lib/viewer/display-modes";
import { orbitByKey } from "@/lib/viewer/keyboard-orbit";
import type { MaterialView } from "@/lib/viewer/material-views";
import { turnCamera } from "@/lib/viewer/turntable";
import { PartLayout, partColour, type ModelPart } from "@/lib/viewer/parts";
import { mark } from "./load-model";

export type Backdrop = "dark" | "light" | "transparent";

export const BACKDROP_COLORS: Record<Exclude<Backdrop, "transparent">, string> = { dark: "#1b1b1e", light: "#e9e9ec" };

/** The parts of drei's orbit controls the fit uses. */
interface Orbit {
  target: Vector3;
  maxDistance: number;
  update(): void;
  saveState(): void;
}

interface ModelSceneProps {
  root: Group;
  /** The camera is fitted again only when this changes: a preview replaced by full detail keeps the user's view. */
  fitKey: string;
  /** Light with the studio's HDR environment (image-based lighting); otherwise plain lights only. */
  environmentLighting: boolean;
  wireframe: boolean;
  clay: boolean;
  /** One map on its own, or the UV checker; "lit" is the model as it is. */
  materialView: MaterialView;
  /** Radians a second the camera circles the model (0: still). */
  turnSpeed: number;
  backdrop: Backdrop;
  /** The model's parts (none for a model of one piece), with what the part list asks of them. */
  parts: readonly ModelPart[];
  partView: PartView;
  /** Called with the root once a frame showing it has been drawn. */
  onDrawn(root: Group): void;
  /** Cameras that move together with this one (compare page); damping is off then, so a pose is final when copied. */
  link?: CameraLink;
}

/** Everything inside the canvas: light, controls, the model and its display modes. */
export function ModelScene({
  root,
  fitKey,
  environmentLighting,
  wireframe,
  clay,
  materialView,
  turnSpeed,
  backdrop,
  parts,
  partView,
  onDrawn,
  link,
}: ModelSceneProps) {
  const environment = useStudioEnvironment(environmentLighting);
  return (
    <>
      {environment ? (
        <primitive object={environment} attach="environment" />
      ) : (
        // Plain lights until the environment map is ready (the model is never drawn black), or instead of it.
        <>
          <hemisphereLight args={["#ffffff", "#44444a", 2]} />
          <directionalLight position={[3, 5, 4]} intensity={1.5} />
        </>
      )}
      {link ? <LinkedControls link={link} /> : <DefaultControls enableDamping dampingFactor={0.12} />}
      <KeyboardOrbit />
      <Turntable speed={turnSpeed} />
      <BackgroundColor backdrop={backdrop} />
      <FittedModel root={root} fitKey={fitKey} />
      <DisplayMode root={root} parts={parts} wireframe={wireframe} clay={clay} view={materialView} partColours={partView.colours} />
      <PartArrangement root={root} parts={parts} hidden={partView.hidden} explode={partView.explode} />
      <ReportDrawn root={root} onDrawn={onDrawn} />
    </>
  );
}

/** Orbit controls whose every change is copied to the linked views (no React update per move). */
function LinkedControls({ link }: { link: CameraLink }) {
  const camera = useThree((s) => s.camera);
  const invalidate = useThree((s) => s.invalidate);
  const controls = useRef<OrbitControlsImpl>(null);
  const view = useRef<LinkedView | null>(null);
  useEffect(() => {
    const target = controls.current?.target;
    if (!target) return;
    const joined: LinkedView = { camera, target, invalidate };
    view.current = joined;
    const leave = link.add(joined);
    return () => {
      leave();
      view.current = null;
    };
  }, [link, camera, invalidate]);
  const onChange = useCallback(() => {
    if (view.current) link.moved(view.current);
  }, [link]);
  return <DefaultControls ref={controls} enableDamping={false} onChange={onChange} />;
}

type OrbitControlsProps = ComponentProps<typeof OrbitControls>;
type OrbitControlsImpl = ComponentRef<typeof OrbitControls>;

/**
 * drei's orbit controls, made the scene's default controls in a layout effect: before the first
 * frame. drei's own makeDefault does it in a passive effect, which usually runs after that frame,
 * and R3F draws a frame on every change of its store: a second frame of the same picture, about
 * 0.1 s for the preview and half a second for 2M triangles on a CPU rasteriser.
 */
function DefaultControls({
  ref,
  ...props
}: Omit<OrbitControlsProps, "makeDefault" | "ref"> & { ref?: RefObject<OrbitControlsImpl | null> }) {
  const set = useThree((s) => s.set);
  const get = useThree((s) => s.get);
  const own = useRef<OrbitControlsImpl>(null);
  const controls = ref ?? own;
  useLayoutEffect(() => {
    const before = get().controls;
    set({ controls: controls.current });
    return () => set({ controls: before });
  }, [get, set, controls]);
  return <OrbitControls ref={controls} {...props} />;
}

/**
 * Tells when `root` is on screen, after exactly one frame of it. Asks for that frame in a
 * layout effect (before the next animation frame, together with the fit and the display
 * mode), notes in the frame's own callback that the frame holds `root`, and reports in the
 * animation frame after it, once it has been drawn. An invalidate from a passive effect
 * instead could run after that frame and cost a second one: about 0.45 s for 2M triangles on
 * a CPU rasteriser.
 */
function ReportDrawn({ root, onDrawn }: { root: Group; onDrawn(root: Group): void }) {
  const invalidate = useThree((s) => s.invalidate);
  const report = useRef(onDrawn);
  const pending = useRef<Group | null>(null);
  const after = useRef(0);
  useEffect(() => {
    report.current = onDrawn;
  });
  useLayoutEffect(() => {
    pending.current = root;
    invalidate();
    return () => {
      pending.current = null;
      cancelAnimationFrame(after.current);
    };
  }, [root, invalidate]);
  useFrame(() => {
    const drawing = pending.current;
    mark("frame", "");
    if (!drawing?.parent) return;
    pending.current = null;
    after.current = requestAnimationFrame(() => report.current(drawing));
  });
  return null;
}

/**
 * Image-based lighting from the studio's own HDR, prefiltered with PMREM. Written here rather
 * than drei's <Environment>, which bundles EXR, gain-map and HDR loaders for every page that
 * shows a model. Attached to the scene (the parent of the canvas's top-level objects).
 */
function useStudioEnvironment(enabled: boolean): Texture | null {
  const gl = useThree((s) => s.gl);
  const invalidate = useThree((s) => s.invalidate);
  const [environment, setEnvironment] = useState<Texture | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let loaded: Texture | undefined;
    let cancelled = false;
    void (async () => {
      const { HDRLoader } = await import("three/examples/jsm/loaders/HDRLoader.js");
      const equirect = await new HDRLoader().loadAsync(ENV_MAP_URL);
      const pmrem = new PMREMGenerator(gl);
      const target = pmrem.fromEquirectangular(equirect);
      equirect.dispose();
      pmrem.dispose();
      if (cancelled) return target.dispose();
      loaded = target.texture;
      setEnvironment(loaded);
    })().catch((e: unknown) => console.warn("[viewer] environment map not loaded:", e));
    return () => {
      cancelled = true;
      loaded?.dispose();
    };
  }, [gl, enabled]);
  // Only once there is a map to light with: the plain lights are drawn already. A layout effect, so
  // its frame is the one the new scene asks for anyway.
  useLayoutEffect(() => {
    if (environment) invalidate();
  }, [environment, invalidate]);
  return enabled ? environment : null;
}

/** Arrow keys and + / − on the focused canvas orbit and zoom, like the mouse does. */
function KeyboardOrbit() {
  const canvas = useThree((s) => s.gl.domElement);
  const camera = useThree((s) => s.camera);
  const controls = useThree((s) => s.controls) as unknown as Orbit | null;
  const invalidate = useThree((s) => s.invalidate);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = controls?.target ?? new Vector3();
      if (!orbitByKey(event.key, camera.position, target, controls?.maxDistance)) return;
      event.preventDefault(); // no page scroll
      camera.lookAt(target);
      controls?.update();
      invalidate();
    };
    canvas.addEventListener("keydown", onKey);
    return () => canvas.removeEventListener("keydown", onKey);
  }, [canvas, camera, controls, invalidate]);
  return null;
}

/** Circles the camera around the orbit target at `speed` radians a second, frame after frame, while set. */
function Turntable({ speed }: { speed: number }) {
  const camera = useThree((s) => s.camera);
  const controls = useThree((s) => s.controls) as unknown as Orbit | null;
  const invalidate = useThree((s) => s.invalidate);
  useEffect(() => {
    if (speed) invalidate(); // the first frame; each frame then asks for the next
  }, [speed, invalidate]);
  useFrame((_, delta) => {
    if (!speed) return;
    const target = controls?.target ?? new Vector3();
    // Real time, so a turn takes its seconds however slow the frames; a stalled tab does not jump.
    turnCamera(camera.position, target, Math.min(delta, 0.25) * speed);
    camera.lookAt(target);
    invalidate();
  });
  return null;
}

function BackgroundColor({ backdrop }: { backdrop: Backdrop }) {
  // No background at all when transparent, so screenshots keep their alpha.
  if (backdrop === "transparent") return null;
  return <color key={backdrop} attach="background" args={[BACKDROP_COLORS[backdrop]]} />;
}

/** Centres the model at the origin and points the camera at it, sized to its bounds (once per fitKey). */
function FittedModel({ root, fitKey }: { root: Group; fitKey: string }) {
  const camera = useThree((s) => s.camera);
  const controls = useThree((s) => s.controls) as unknown as Orbit | null;
  const invalidate = useThree((s) => s.invalidate);
  const fitted = useRef<{ key: string; fit: CameraFit; controls: Orbit | null } | null>(null);

  useLayoutEffect(() => {
    const fit = centre(root, camera instanceof PerspectiveCamera ? camera : null);
    if (fit && fitted.current?.key !== fitKey && camera instanceof PerspectiveCamera) {
      aimCamera(fit, camera);
      fitted.current = { key: fitKey, fit, controls: null };
    }
    invalidate();
    // The camera's aspect is left out on purpose: resizing should not undo the user's orbit.
  }, [root, fitKey, camera, invalidate]);

  // The orbit controls join the store in DefaultControls' layout effect, after the fit above ran
  // (their arrival renders this again): they take the fit's target and limits then. The camera
  // stays where the fit put it, so nothing on screen changes and no frame is asked for: at 2M
  // triangles on a CPU rasteriser a second frame of the same picture costs about half a second.
  useLayoutEffect(() => {
    const done = fitted.current;
    if (!controls || !done || done.controls === controls) return;
    aimControls(done.fit, controls);
    done.controls = controls;
  }, [controls, root, fitKey]);

  return <primitive object={root} dispose={null} />;
}

/** Moves the model's centre to the origin; returns the camera fit for its bounds. */
function centre(root: Group, camera: PerspectiveCamera | null): CameraFit | null {
  root.position.set(0, 0, 0);
  root.updateMatrixWorld(true);
  const box = new Box3().setFromObject(root);
  const fit = fitCamera({ min: box.min.toArray(), max: box.max.toArray() }, { fovDeg: camera?.fov ?? 45, aspect: camera?.aspect ?? 1 });
  root.position.set(-fit.center[0], -fit.center[1], -fit.center[2]);
  return camera ? fit : null;
}

function aimCamera(fit: CameraFit, camera: PerspectiveCamera): void {
  camera.position.set(...fit.position);
  camera.near = fit.near;
  camera.far = fit.far;
  camera.lookAt(0, 0, 0);
  camera.updateProjectionMatrix();
}

/** Orbits about the fit's centre, out to its limit; "reset" returns to this view. An update that moves the camera says so (a change event). */
function aimControls(fit: CameraFit, controls: Orbit): void {
  controls.target.set(0, 0, 0);
  controls.maxDistance = fit.maxDistance;
  controls.update();
  controls.saveState();
}

/** What the part list asks: parts hidden (by name), the explode amount (0–1), colour by part. */
export interface PartView {
  hidden: ReadonlySet<string>;
  explode: number;
  colours: boolean;
}

interface DisplayModeProps {
  root: Group;
  parts: readonly ModelPart[];
  wireframe: boolean;
  clay: boolean;
  view: MaterialView;
  partColours: boolean;
}

function DisplayMode({ root, parts, wireframe, clay, view, partColours }: DisplayModeProps) {
  const invalidate = useThree((s) => s.invalidate);
  const modes = useMemo(() => new DisplayModes(root), [root]);
  const colours = useMemo(() => new Map(parts.map((p, i) => [p.object, partColour(i)])), [parts]);
  useEffect(() => () => modes.dispose(), [modes]);
  // A layout effect: a new model's first frame already shows it in the current mode.
  useLayoutEffect(() => {
    modes.apply({ wireframe, clay, view, partColours: partColours && colours.size > 0 ? colours : null });
    invalidate();
  }, [modes, wireframe, clay, view, partColours, colours, invalidate]);
  return null;
}

/** Shows and hides parts by name, and moves them apart by the explode amount. */
function PartArrangement({
  root,
  parts,
  hidden,
  explode,
}: {
  root: Group;
  parts: readonly ModelPart[];
  hidden: ReadonlySet<string>;
  explode: number;
}) {
  const invalidate = useThree((s) => s.invalidate);
  // Measured once per model, while its parts are still where the file put them.
  const layout = useMemo(() => new PartLayout(root, parts), [root, parts]);
  useLayoutEffect(() => {
    layout.apply(hidden, explode);
    invalidate();
  }, [layout, hidden, explode, invalidate]);
  return null;
}
