import { describe, expect, it } from "vitest";
import { PerspectiveCamera, Vector3 } from "three";
import { CameraLink, type LinkedView } from "./camera-link";

function view(): LinkedView & { frames: number } {
  const v = {
    camera: new PerspectiveCamera(),
    target: new Vector3(),
    frames: 0,
    invalidate() {
      v.frames++;
    },
  };
  return v;
}

describe("CameraLink", () => {
  it("gives the other views the moved one's pose and target, one frame each", () => {
    const link = new CameraLink();
    const [a, b, c] = [view(), view(), view()];
    for (const v of [a, b, c]) link.add(v);
    a.camera.position.set(1, 2, 3);
    a.camera.lookAt(0, 0, 0);
    a.target.set(0.5, 0, 0);
    link.moved(a);
    for (const other of [b, c]) {
      expect(other.camera.position.toArray()).toEqual([1, 2, 3]);
      expect(other.camera.quaternion.equals(a.camera.quaternion)).toBe(true);
      expect(other.target.toArray()).toEqual([0.5, 0, 0]);
      expect(other.frames).toBe(1);
    }
    expect(a.frames).toBe(0);
  });

  it("draws nothing for an echo, and forgets a view that left", () => {
    const link = new CameraLink();
    const [a, b] = [view(), view()];
    link.add(a);
    const leave = link.add(b);
    a.camera.position.set(0, 0, 4);
    link.moved(a);
    // b's controls report the copied pose back: a is already there.
    link.moved(b);
    expect(a.frames).toBe(0);
    leave();
    a.camera.position.set(0, 1, 4);
    link.moved(a);
    expect(b.frames).toBe(1);
  });
});
