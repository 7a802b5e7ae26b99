import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { depthCover, renderCover, renderScene } from "./cover";
import { sceneOf, uvSphere } from "./generate.test-helpers";

describe("cover", () => {
  it("renders a shaded 512x512 PNG", async () => {
    const png = await renderCover(sceneOf(uvSphere(30)));
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([512, 512]);
    const greys = new Set<number>();
    for (let i = 0; i < data.length; i += info.channels) greys.add(data[i]!);
    expect(greys.size).toBeGreaterThan(50); // shading, not a flat fill
  });

  it("draws the object in the middle, background in the corners, lit from above", () => {
    const img = renderScene(sceneOf(uvSphere(30)), { size: 128 });
    const at = (x: number, y: number) => img.data[(y * 128 + x) * 4]!;
    const corner = at(2, 2);
    expect(Math.abs(at(64, 64) - corner)).toBeGreaterThan(10);
    // Upper part of the sphere brighter than its lower part.
    expect(at(64, 35)).toBeGreaterThan(at(64, 85) + 20);
  });

  it("uses vertex colours", () => {
    const s = uvSphere(30);
    s.colors = new Float32Array(s.positions.length).map((_, i) => (i % 3 === 0 ? 1 : 0));
    const img = renderScene(sceneOf(s), { size: 64 });
    const o = (32 * 64 + 32) * 4;
    expect(img.data[o]!).toBeGreaterThan(img.data[o + 1]! + 50);
  });

  it("depth previews are PNGs at most 512 px", async () => {
    const gray = Float32Array.from({ length: 1024 * 256 }, (_, i) => (i % 1024) / 1023);
    const meta = await sharp(await depthCover(1024, 256, gray)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 512, 128]);
  });
});
