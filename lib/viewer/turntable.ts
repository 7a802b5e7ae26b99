/** The viewer's turntable: the camera circling the model, and the 6-second WebM recorded of it. */
import { Vector3 } from "three";

/** Seconds of the recorded turntable, one full turn. */
export const TURNTABLE_SECONDS = 6;
/** Seconds per turn of the auto-rotate view. */
export const AUTO_ROTATE_SECONDS = 20;

const UP = new Vector3(0, 1, 0);

/** Turns `camera` (a position) about the vertical axis through `target` by `radians`. */
export function turnCamera(camera: Vector3, target: Vector3, radians: number): void {
  camera.sub(target).applyAxisAngle(UP, radians).add(target);
}

/** The first WebM type the recorder supports, or null (no WebM recording in this browser). */
export function webmType(isTypeSupported: (type: string) => boolean): string | null {
  return ["video/webm;codecs=vp9", "video/webm;codecs=vp8", "video/webm"].find((t) => isTypeSupported(t)) ?? null;
}

/** The recording's file name: the screenshot's base with "-turntable.webm". */
export function turntableName(screenshotName: string): string {
  return screenshotName.replace(/\.png$/, "") + "-turntable.webm";
}
