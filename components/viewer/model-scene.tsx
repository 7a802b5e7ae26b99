"use client";

import { Environment, OrbitControls } from "@react-three/drei";
import { useThree } from "@react-three/fiber";
import { Suspense, useEffect, useLayoutEffect, useMemo } from "react";
import { Box3, PerspectiveCamera, type Group, type Vector3 } from "three";
import { fitCamera } from "@/lib/viewer/camera-fit";
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
  wireframe: boolean;
  clay: boolean;
  backdrop: Backdrop;
}

/** Everything inside the canvas: light, controls, the model and its display modes. */
export function ModelScene({ root, wireframe, clay, backdrop }: ModelSceneProps) {
  return (
    <>
      <Suspense fallback={null}>
        <Environment files={ENV_MAP} />
        <RedrawOnMount />
      </Suspense>
      <OrbitControls makeDefault enableDamping dampingFactor={0.12} />
      <BackgroundColor backdrop={backdrop} />
      <FittedModel root={root} />
      <DisplayMode root={root} wireframe={wireframe} clay={clay} />
    </>
  );
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

/** Centres the model at the origin and points the camera at it, sized to its bounds. */
function FittedModel({ root }: { root: Group }) {
  const camera = useThree((s) => s.camera);
  const controls = useThree((s) => s.controls) as unknown as Orbit | null;
  const invalidate = useThree((s) => s.invalidate);

  useLayoutEffect(() => {
    if (camera instanceof PerspectiveCamera) fitView(root, camera, controls);
    invalidate();
    // The camera's aspect is left out on purpose: resizing should not undo the user's orbit.
  }, [root, camera, controls, invalidate]);

  return <primitive object={root} dispose={null} />;
}

function fitView(root: Group, camera: PerspectiveCamera, controls: Orbit | null): void {
  root.position.set(0, 0, 0);
  root.updateMatrixWorld(true);
  const box = new Box3().setFromObject(root);
  const fit = fitCamera({ min: box.min.toArray(), max: box.max.toArray() }, { fovDeg: camera.fov, aspect: camera.aspect });
  root.position.set(-fit.center[0], -fit.center[1], -fit.center[2]);
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
