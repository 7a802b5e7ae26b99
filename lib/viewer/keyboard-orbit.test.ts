import { Vector3 } from "three";
import { describe, expect, it } from "vitest";
import { orbitByKey } from "./keyboard-orbit";

describe("orbitByKey", () => {
  it("turns around the target at the same distance, tilts short of the pole, zooms within the limit", () => {
    const target = new Vector3(1, 0, 0);
    const camera = new Vector3(1, 0, 5);
    expect(orbitByKey("ArrowRight", camera, target)).toBe(true);
    expect(camera.distanceTo(target)).toBeCloseTo(5);
    expect(camera.x - 1).toBeCloseTo(5 * Math.sin(Math.PI / 12));
    expect(camera.y).toBeCloseTo(0);
    for (let i = 0; i < 20; i++) orbitByKey("ArrowUp", camera, target);
    expect(camera.y).toBeLessThan(5);
    expect(camera.y).toBeGreaterThan(4.9);
    orbitByKey("+", camera, target);
    expect(camera.distanceTo(target)).toBeCloseTo(4.25);
    for (let i = 0; i < 10; i++) orbitByKey("-", camera, target, 8);
    expect(camera.distanceTo(target)).toBeCloseTo(8);
  });

  it("leaves other keys alone", () => {
    const camera = new Vector3(0, 0, 5);
    expect(orbitByKey("a", camera, new Vector3())).toBe(false);
    expect(camera).toEqual(new Vector3(0, 0, 5));
  });
});
