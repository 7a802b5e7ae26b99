/**
 * Orbiting the viewer's camera from the keyboard: arrows turn the model around its target,
 * + and − zoom, within the distance the orbit controls allow.
 */
import { Spherical, Vector3 } from "three";

const TURN = Math.PI / 12; // 15° a press
const TILT = Math.PI / 18; // 10°
const ZOOM = 0.85;
const POLE = 0.05; // never quite over a pole, where the camera's up flips

/** Moves `camera` (a position) around `target` for `key`; false when the key is not one of the viewer's. */
export function orbitByKey(key: string, camera: Vector3, target: Vector3, maxDistance = Infinity): boolean {
  const s = new Spherical().setFromVector3(new Vector3().subVectors(camera, target));
  switch (key) {
    case "ArrowLeft":
      s.theta -= TURN;
      break;
    case "ArrowRight":
      s.theta += TURN;
      break;
    case "ArrowUp":
      s.phi = Math.max(POLE, s.phi - TILT);
      break;
    case "ArrowDown":
      s.phi = Math.min(Math.PI - POLE, s.phi + TILT);
      break;
    case "+":
    case "=":
      s.radius *= ZOOM;
      break;
    case "-":
    case "_":
      s.radius = Math.min(maxDistance, s.radius / ZOOM);
      break;
    default:
      return false;
  }
  camera.copy(target).add(new Vector3().setFromSpherical(s));
  return true;
}
