"use client";

import { useFrame, useThree } from "@react-three/fiber";
import { useEffect, useLayoutEffect, useMemo, useRef, type RefObject } from "react";
import { BufferGeometry, Line, LineBasicMaterial, Matrix4, PerspectiveCamera, Raycaster, Vector2, Vector3, type Group } from "three";
import { formatLength, gridStep, scaleBar } from "@/lib/viewer/measure";
import type { MeshInput } from "@/lib/viewer/mesh-analysis";

interface MeasureSceneProps {
  root: Group;
  /**
   * The model's triangles in the root's frame, as they are drawn (null while parts are moved or
   * hidden): picked through their shared spatial index instead of every triangle on the page.
   */
  model: MeshInput | null;
  /** Millimetres per model unit at the chosen size. */
  scale: number;
  /** The model's bounds in the root's frame (model units). */
  min: readonly [number, number, number];
  max: readonly [number, number, number];
  grid: boolean;
  measuring: boolean;
  /** Picked points in world space (at most two). */
  points: Vector3[];
  onPick(point: Vector3): void;
  /** The scale bar's element: its width and label follow the zoom. */
  scaleBarRef: RefObject<HTMLDivElement | null>;
}

/** The grid under the model in round millimetres, the scale bar, and the two-point measuring tool. */
export function MeasureScene({ root, model, scale, min, max, grid, measuring, points, onPick, scaleBarRef }: MeasureSceneProps) {
  const extentMm = Math.max(max[0] - min[0], max[2] - min[2]) * scale;
  const stepMm = gridStep(extentMm);
  const cells = 2 * Math.ceil((extentMm * 0.75) / stepMm);
  const gridRef = useRef<Group>(null);
  const invalidate = useThree((s) => s.invalidate);
  // A layout effect: on mount (and on each change) its frame is the one the new objects ask for
  // anyway; a passive effect ran after that frame and cost a second one.
  useLayoutEffect(() => invalidate(), [grid, points, scale, invalidate]);

  useFrame(({ camera, size, controls }) => {
    // The grid sits under the model, which the fit moved to be centred on the origin.
    const g = gridRef.current;
    if (g) g.position.set(root.position.x + (min[0] + max[0]) / 2, root.position.y + min[1], root.position.z + (min[2] + max[2]) / 2);
    const bar = scaleBarRef.current;
    if (!bar || !(camera instanceof PerspectiveCamera)) return;
    const target = (controls as unknown as { target?: Vector3 } | null)?.target ?? new Vector3();
    const distance = camera.position.distanceTo(target);
    const pxPerUnit = size.height / (2 * distance * Math.tan((camera.fov * Math.PI) / 360));
    const { mm, px } = scaleBar(pxPerUnit / scale);
    bar.style.width = `${Math.round(px)}px`;
    bar.dataset.mm = String(mm);
    const label = bar.firstElementChild;
    if (label) label.textContent = formatLength(mm).replace(".0 mm", " mm");
  });

  return (
    <>
      {grid ? (
        <group ref={gridRef}>
          <gridHelper args={[(cells * stepMm) / scale, cells, "#5b6b80", "#3a3f47"]} />
        </group>
      ) : null}
      <Picker root={root} model={model} active={measuring} onPick={onPick} />
      <Markers points={points} radius={(Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]) || 1) * 0.008} />
    </>
  );
}

/**
 * A click (not a drag) on the model picks the surface point under the pointer: through the
 * model's spatial index when there is one (it answers in well under a millisecond at 5M
 * triangles; the first click may wait for the index to arrive), else three.js's raycaster.
 */
function Picker({ root, model, active, onPick }: { root: Group; model: MeshInput | null; active: boolean; onPick(point: Vector3): void }) {
  const gl = useThree((s) => s.gl);
  const camera = useThree((s) => s.camera);
  const pick = useRef(onPick);
  useEffect(() => {
    pick.current = onPick;
  });
  useEffect(() => {
    if (!active) return;
    const canvas = gl.domElement;
    let live = true;
    // The index's code (three-mesh-bvh) loads when measuring starts, and the index is asked for
    // then (shared with the print panel's analysis, or built in a worker), not at the first click.
    if (model) void loadIndex().then(({ modelIndex }) => modelIndex(model).catch(() => undefined));
    let down: { x: number; y: number } | null = null;
    const onDown = (e: PointerEvent) => {
      down = { x: e.clientX, y: e.clientY };
    };
    const onUp = (e: PointerEvent) => {
      if (!down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > 4) return;
      const rect = canvas.getBoundingClientRect();
      const ndc = new Vector2(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
      const ray = new Raycaster();
      ray.setFromCamera(ndc, camera);
      if (!model) {
        const hit = ray.intersectObject(root, true)[0];
        if (hit) pick.current(hit.point.clone());
        return;
      }
      // The index is in the root's frame: the ray goes in, the hit comes back out.
      root.updateMatrixWorld();
      const toWorld = root.matrixWorld.clone();
      const local = ray.ray.clone().applyMatrix4(new Matrix4().copy(toWorld).invert());
      void loadIndex()
        .then(({ pickModel }) => pickModel(model, local.origin.toArray(), local.direction.toArray()))
        .then(
          (hit) => {
            if (hit && live) pick.current(new Vector3(...hit.point).applyMatrix4(toWorld));
          },
          (error: unknown) => console.warn("[viewer] the measuring pick failed", error),
        );
    };
    canvas.addEventListener("pointerdown", onDown);
    canvas.addEventListener("pointerup", onUp);
    return () => {
      live = false;
      canvas.removeEventListener("pointerdown", onDown);
      canvas.removeEventListener("pointerup", onUp);
    };
  }, [active, gl, camera, root, model]);
  return null;
}

const loadIndex = () => import("@/lib/viewer/model-index");

function Markers({ points, radius }: { points: Vector3[]; radius: number }) {
  const line = useMemo(() => {
    if (points.length < 2) return null;
    return new Line(new BufferGeometry().setFromPoints(points), new LineBasicMaterial({ color: "#38bdf8", depthTest: false }));
  }, [points]);
  useEffect(
    () => () => {
      line?.geometry.dispose();
      (line?.material as LineBasicMaterial | undefined)?.dispose();
    },
    [line],
  );
  return (
    <>
      {points.map((p, i) => (
        <mesh key={i} position={p} renderOrder={2}>
          <sphereGeometry args={[radius, 16, 12]} />
          <meshBasicMaterial color="#38bdf8" depthTest={false} />
        </mesh>
      ))}
      {line ? <primitive object={line} renderOrder={2} /> : null}
    </>
  );
}
