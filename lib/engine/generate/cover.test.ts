import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { depthCover, renderCover, renderScene } from "./cover";
import type { Material, MeshPart, Scene } from "@/lib/engine/mesh/types";
import { box, sceneOf, uvSphere } from "./generate.test-helpers";

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

  // What the cover shows follows the scene and the camera, pixel by pixel.
  const material = (rgb: [number, number, number]): Material => ({
    name: "m",
    baseColorFactor: [...rgb, 1],
    metallicFactor: 0,
    roughnessFactor: 1,
  });
  const coloured = (part: MeshPart, rgb: [number, number, number]): MeshPart => ({ ...part, material: material(rgb) });
  const pixel = (img: { width: number; data: Uint8Array }, x: number, y: number) => {
    const o = (y * img.width + x) * 4;
    return [img.data[o]!, img.data[o + 1]!, img.data[o + 2]!];
  };
  /** The object's pixels (not the background's gradient): their bounds and count. */
  const silhouette = (img: { width: number; height: number; data: Uint8Array }, background: Uint8Array) => {
    let x0 = Infinity,
      x1 = -Infinity,
      y0 = Infinity,
      y1 = -Infinity,
      n = 0;
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++) {
        const o = (y * img.width + x) * 4;
        if (Math.abs(img.data[o]! - background[o]!) + Math.abs(img.data[o + 2]! - background[o + 2]!) < 3) continue;
        n++;
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
    return { x0, x1, y0, y1, n };
  };
  const empty: Scene = { parts: [] };

  it("an empty scene is the background alone: a soft grey, lighter at the top, a touch of blue", () => {
    const img = renderScene(empty, { size: 64 });
    expect([img.width, img.height, img.data.length]).toEqual([64, 64, 64 * 64 * 4]);
    const [r, g, b] = pixel(img, 10, 0);
    expect(r).toBe(g);
    expect(b).toBeGreaterThan(r!);
    expect(r).toBeGreaterThan(pixel(img, 10, 63)[0]! + 10);
    expect(pixel(img, 0, 20)).toEqual(pixel(img, 63, 20)); // no change across a row
    for (let i = 3; i < img.data.length; i += 4) expect(img.data[i]).toBe(255);
  });

  it("fits the object to 88% of the frame, centred, at every size", () => {
    for (const size of [64, 200]) {
      const img = renderScene(sceneOf(uvSphere(7, 24, 48, [100, -40, 3])), { size });
      const sil = silhouette(img, renderScene(empty, { size }).data);
      const w = sil.x1 - sil.x0 + 1,
        h = sil.y1 - sil.y0 + 1;
      expect(Math.max(w, h) / size).toBeCloseTo(0.88, 1);
      expect((sil.x0 + sil.x1 + 1) / 2 / size).toBeCloseTo(0.5, 1);
      expect((sil.y0 + sil.y1 + 1) / 2 / size).toBeCloseTo(0.5, 1);
    }
  });

  it("looks from the azimuth and elevation asked: the nearer of two cubes hides the farther", () => {
    const scene = sceneOf(coloured(box([20, 0, -5], [30, 10, 5]), [1, 0, 0]), coloured(box([-30, 0, -5], [-20, 10, 5]), [0, 0, 1]));
    const redness = (opts: { azimuthDeg: number; elevationDeg: number }) => {
      const img = renderScene(scene, { size: 64, ...opts });
      let red = 0,
        blue = 0;
      for (let i = 0; i < img.data.length; i += 4) {
        if (img.data[i]! > img.data[i + 2]! + 40) red++;
        if (img.data[i + 2]! > img.data[i]! + 40) blue++;
      }
      return red / (red + blue);
    };
    // From +X the red cube stands in front of the blue one; from -X the other way round.
    expect(redness({ azimuthDeg: 90, elevationDeg: 0 })).toBeGreaterThan(0.95);
    expect(redness({ azimuthDeg: -90, elevationDeg: 0 })).toBeLessThan(0.05);
    // From the front (+Z) both show, side by side.
    expect(redness({ azimuthDeg: 0, elevationDeg: 0 })).toBeCloseTo(0.5, 1);
    // From straight above, too; red on the right (+X).
    const top = renderScene(scene, { size: 64, azimuthDeg: 0, elevationDeg: 89 });
    expect(pixel(top, 56, 32)[0]).toBeGreaterThan(pixel(top, 56, 32)[2]! + 40);
    expect(pixel(top, 8, 32)[2]).toBeGreaterThan(pixel(top, 8, 32)[0]! + 40);
  });

  it("colours by material, else clay grey; texture by uv, times the material factor", () => {
    const mid = (part: MeshPart) => pixel(renderScene(sceneOf(part), { size: 64 }), 32, 32);
    const [r, g, b] = mid(coloured(uvSphere(30), [0, 1, 0]));
    expect(g).toBeGreaterThan(100);
    expect(r! + b!).toBe(0);
    const clay = mid(uvSphere(30));
    expect(clay[0]).toBeGreaterThan(clay[1]!);
    expect(clay[1]).toBeGreaterThan(clay[2]!);
    // A quad facing the camera, its texture red on the left half, blue on the right.
    const quad: MeshPart = {
      name: "q",
      positions: new Float32Array([-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0]),
      indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
      uvs: new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]),
      material: {
        ...material([1, 1, 1]),
        baseColorTexture: { width: 2, height: 1, data: new Uint8Array([255, 0, 0, 255, 0, 0, 255, 255]) },
      },
    };
    const img = renderScene(sceneOf(quad), { size: 64, azimuthDeg: 0, elevationDeg: 0 });
    const left = pixel(img, 16, 32),
      right = pixel(img, 48, 32);
    expect(left[0]).toBeGreaterThan(150);
    expect(left[2]).toBe(0);
    expect(right[2]).toBeGreaterThan(150);
    expect(right[0]).toBe(0);
    // The material factor tints the texture: a zero red factor leaves the left half black.
    const tinted = renderScene(sceneOf({ ...quad, material: { ...quad.material!, baseColorFactor: [0, 1, 1, 1] } }), {
      size: 64,
      azimuthDeg: 0,
      elevationDeg: 0,
    });
    expect(pixel(tinted, 16, 32)).toEqual([0, 0, 0]);
  });

  it("shades both sides: a quad seen from behind is lit like from the front", () => {
    const quad: MeshPart = {
      name: "q",
      positions: new Float32Array([-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0]),
      indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    };
    const front = pixel(renderScene(sceneOf(quad), { size: 32, azimuthDeg: 0, elevationDeg: 0 }), 16, 16);
    const back = pixel(renderScene(sceneOf(quad), { size: 32, azimuthDeg: 180, elevationDeg: 0 }), 16, 16);
    expect(front[0]).toBeGreaterThan(60);
    expect(Math.abs(front[0]! - back[0]!)).toBeLessThanOrEqual(2);
  });

  it("depth previews map 0..1 to black..white, clamp outside, and never enlarge", async () => {
    const gray = Float32Array.from([-0.5, 0, 0.5, 1, 1.5, 0.25]);
    const { data, info } = await sharp(await depthCover(3, 2, gray))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([3, 2]);
    expect(Array.from(data.filter((_, i) => i % info.channels === 0))).toEqual([0, 0, 128, 255, 255, 64]);
    const tall = await sharp(await depthCover(100, 1000, new Float32Array(100 * 1000), 100)).metadata();
    expect([tall.width, tall.height]).toEqual([10, 100]);
  });
});
