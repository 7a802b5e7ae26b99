import { Vector3 } from "three";
import { describe, expect, it } from "vitest";
import { turnCamera, turntableName, webmType } from "./turntable";

describe("turntable", () => {
  it("turns the camera about the vertical through the target, keeping height and distance", () => {
    const target = new Vector3(1, 2, 0);
    const camera = new Vector3(1, 3, 4);
    turnCamera(camera, target, Math.PI / 2);
    expect(camera.x).toBeCloseTo(5);
    expect(camera.y).toBeCloseTo(3);
    expect(camera.z).toBeCloseTo(0);
    turnCamera(camera, target, (3 * Math.PI) / 2); // a full turn in all
    expect(camera.distanceTo(new Vector3(1, 3, 4))).toBeCloseTo(0);
  });

  it("picks the best WebM type the recorder has, or none", () => {
    expect(webmType((t) => t === "video/webm;codecs=vp8" || t === "video/webm")).toBe("video/webm;codecs=vp8");
    expect(webmType(() => false)).toBeNull();
  });

  it("names the recording after the model", () => {
    expect(turntableName("split-2026-11-24.png")).toBe("split-2026-11-24-turntable.webm");
  });
});
