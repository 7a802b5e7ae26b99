import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { InputDecodeError } from "./errors";
import { decodeImage, foregroundMask } from "./image-input";
import { cleanMask, distanceTransform, labelComponents, maskBounds } from "./mask-ops";
import { fixture, synthImage } from "./generate.test-helpers";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe("decodeImage", () => {
  it("decodes a fixture to RGBA at the working size", async () => {
    const img = await decodeImage(fixture("teapot.png"), { maxSide: 256 });
    expect(Math.max(img.width, img.height)).toBe(256);
    expect(img.data.length).toBe(img.width * img.height * 4);
    expect(img.hasAlpha).toBe(false);
    const robot = await decodeImage(fixture("robot.png"), { maxSide: 1024 });
    expect(robot.width).toBe(512); // not enlarged by default
    expect(robot.hasAlpha).toBe(true);
  });

  it("enlarges when asked", async () => {
    const img = await decodeImage(fixture("robot.png"), { maxSide: 1024, enlarge: true });
    expect(img.width).toBe(1024);
  });

  it("throws InputDecodeError for a PNG signature followed by garbage", async () => {
    const bytes = new Uint8Array(2048);
    bytes.set(PNG_SIGNATURE);
    for (let i = 8; i < bytes.length; i++) bytes[i] = (i * 7919) & 255;
    await expect(decodeImage(bytes, { maxSide: 512 })).rejects.toBeInstanceOf(InputDecodeError);
  });

  it("throws InputDecodeError for a truncated PNG", async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer();
    await expect(decodeImage(new Uint8Array(png.subarray(0, 40)), { maxSide: 64 })).rejects.toBeInstanceOf(InputDecodeError);
  });
});

describe("foregroundMask", () => {
  it("removes a uniform background and keeps an enclosed background-coloured hole out", () => {
    // A red ring (with a background-coloured hole) on light grey.
    const img = synthImage(200, 150, [200, 200, 205], (x, y) => {
      const r = Math.hypot(x - 100, y - 75);
      return r < 50 && r > 20 ? [180, 30, 20] : null;
    });
    const mask = foregroundMask(img, { rmbg: true, tolerance: 0.02 });
    let agree = 0;
    for (let y = 0; y < 150; y++)
      for (let x = 0; x < 200; x++) {
        const r = Math.hypot(x - 100, y - 75);
        if ((r < 50 && r > 20 ? 1 : 0) === mask[y * 200 + x]) agree++;
      }
    expect(agree / (200 * 150)).toBeGreaterThan(0.99);
    expect(mask[75 * 200 + 100]).toBe(0); // the hole
  });

  it("uses the whole frame without rmbg and without alpha", () => {
    const img = synthImage(20, 10, [0, 0, 0], () => null);
    expect(foregroundMask(img, { rmbg: false }).every((v) => v === 1)).toBe(true);
  });

  it("uses the alpha channel when it is meaningful", async () => {
    const img = await decodeImage(fixture("robot.png"), { maxSide: 512 });
    const mask = foregroundMask(img, { rmbg: false });
    let agree = 0;
    for (let p = 0; p < mask.length; p++) if ((img.data[p * 4 + 3]! >= 128 ? 1 : 0) === mask[p]) agree++;
    expect(agree / mask.length).toBeGreaterThan(0.99);
    expect(mask[0]).toBe(0);
  });

  it("isolates the teapot from its grey backdrop", async () => {
    const img = await decodeImage(fixture("teapot.png"), { maxSide: 512 });
    const mask = foregroundMask(img, { rmbg: true, tolerance: 0.06 });
    const b = maskBounds(mask, img.width, img.height)!;
    expect(mask[0]).toBe(0);
    expect(mask[(img.height >> 1) * img.width + (img.width >> 1)]).toBe(1);
    // One main component, wider than tall, well inside the frame.
    expect((b.x1 - b.x0) / (b.y1 - b.y0)).toBeGreaterThan(1.2);
    expect(b.x0).toBeGreaterThan(10);
    const comps = labelComponents(mask, img.width, img.height, 1);
    expect(comps.sizes.filter((s) => s > 100).length).toBe(1);
  });
});

describe("mask-ops", () => {
  it("distance transform matches brute force", () => {
    const w = 37,
      h = 23;
    const f = new Uint8Array(w * h);
    let seed = 7;
    for (let i = 0; i < f.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      f[i] = seed % 17 === 0 ? 1 : 0;
    }
    const d = distanceTransform(f, w, h);
    for (let p = 0; p < w * h; p++) {
      let best = Infinity;
      for (let q = 0; q < w * h; q++) if (f[q]) best = Math.min(best, Math.hypot((p % w) - (q % w), Math.floor(p / w) - Math.floor(q / w)));
      expect(d[p]).toBeCloseTo(best, 4);
    }
  });

  it("cleanMask removes specks and fills small holes", () => {
    const w = 30,
      h = 30;
    const m = new Uint8Array(w * h);
    for (let y = 5; y < 25; y++) for (let x = 5; x < 25; x++) m[y * w + x] = 1;
    m[15 * w + 15] = 0; // hole
    m[1 * w + 1] = 1; // speck
    cleanMask(m, w, h, 4, 4);
    expect(m[15 * w + 15]).toBe(1);
    expect(m[1 * w + 1]).toBe(0);
  });
});
