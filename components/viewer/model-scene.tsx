"use client";

import { Environment, OrbitControls } from "@react-three/drei";
import { useThree } from "@react-three/fiber";
import { Suspense, useEffect, useLayoutEffect, useMemo, useRef } from "react";
import { Box3, PerspectiveCamera, type Group, type Vector3 } from "three";
import { fitCamera, type CameraFit } from "@/lib/viewer/camera-fit";
import { DisplayModes } from "@/lib/viewer/display-modes";

export type Backdrop = "dark" | "light" | "transparent";

export const BACKDROP_COLORS: Record<Exclude<Backdrop, "transparent">, string> = { dark: "#1b1b1e", light: "#e9e9ec" };

/** The parts of drei's orbit controls the fit uses. */
interface Orbit {
  target: Vector3;
  maxDistance: number;
  update(): void;
  saveState(): void;
}

/** Served from public/ (scripts/make-env-map.mjs): drei's presets would fetch from a CDN. */
const ENV_MAP = "/env/studio.hdr";

interface ModelSceneProps {
  root: Group;
  /** The camera is fitted again only when this changes: a preview replaced by full detail keeps the user's view. */
  fitKey: string;
  wireframe: boolean;
  clay: boolean;
  backdrop: Backdrop;
  /** Called with the root once a frame showing it has been drawn. */
  onDrawn(root: Group): void;
}

/** Everything inside the canvas: light, controls, the model and its display modes. */
export function ModelScene({ root, fitKey, wireframe, clay, backdrop, onDrawn }: ModelSceneProps) {
  return (
    <>
      <Suspense fallback={null}>
        <Environment files={ENV_MAP} />
        <RedrawOnMount />
      </Suspense>
      <OrbitControls makeDefault enableDamping dampingFactor={0.12} />
      <BackgroundColor backdrop={backdrop} />
      <FittedModel root={root} fitKey={fitKey} />
      <DisplayMode root={root} wireframe={wireframe} clay={clay} />
      <ReportDrawn root={root} onDrawn={onDrawn} />
    </>
  );
}

/**
 * Tells when `root` is on screen: the on-demand loop draws in the animation frame after an
 * invalidate, so the frame after that one comes once the model has been drawn.
 */
function ReportDrawn({ root, onDrawn }: { root: Group; onDrawn(root: Group): void }) {
  const invalidate = useThree((s) => s.invalidate);
  const report = useRef(onDrawn);
  useEffect(() => {
    report.current = onDrawn;
  });
  useEffect(() => {
    let second = 0;
    invalidate();
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(() => report.current(root));
    });
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(second);
    };
  }, [root, invalidate]);
  return null;
}

/** Environment sets scene.environment imperatively, so ask the on-demand frame loop for a frame. */
function RedrawOnMount() {
  const invalidate = useThree((s) => s.invalidate);
  useEffect(() => invalidate(), [invalidate]);
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
  const fitted = useRef<{ key: string; controls: Orbit | null } | null>(null);

  useLayoutEffect(() => {
    const fit = centre(root, camera instanceof PerspectiveCamera ? camera : null);
    const refit = fitted.current?.key !== fitKey || fitted.current.controls !== controls;
    if (fit && refit && camera instanceof PerspectiveCamera) {
      aimCamera(fit, camera, controls);
      fitted.current = { key: fitKey, controls };
    }
    invalidate();
    // The camera's aspect is left out on purpose: resizing should not undo the user's orbit.
  }, [root, fitKey, camera, controls, invalidate]);

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

function aimCamera(fit: CameraFit, camera: PerspectiveCamera, controls: Orbit | null): void {
  camera.position.set(...fit.position);
  camera.near = fit.near;
  camera.far = fit.far;
  camera.lookAt(0, 0, 0);
  camera.updateProjectionMatrix();
  if (controls) {
    controls.target.set(0, 0, 0);
    controls.maxDistance = fit.maxDistance;
    controls.update();
    controls.saveState();
  }
}

function DisplayMode({ root, wireframe, clay }: { root: Group; wireframe: boolean; clay: boolean }) {
  const invalidate = useThree((s) => s.invalidate);
  const modes = useMemo(() => new DisplayModes(root), [root]);
  useEffect(() => () => modes.dispose(), [modes]);
  useEffect(() => {
    modes.apply({ wireframe, clay });
    invalidate();
  }, [modes, wireframe, clay, invalidate]);
  return null;
}
