// Image input pinned on small synthetic images: EXIF orientation, the working size, when the
// alpha channel counts as a silhouette, and the background's colour tolerance, each at its edge.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { decodeImage, foregroundMask, type DecodedImage } from "./image-input";
import { countSet } from "./mask-ops";

/** An RGBA image from a per-pixel function, as PNG bytes. */
async function png(w: number, h: number, at: (x: number, y: number) => [number, number, number, number]): Promise<Uint8Array> {
  const raw = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw.set(at(x, y), (y * w + x) * 4);
  return new Uint8Array(
    await sharp(raw, { raw: { width: w, height: h, channels: 4 } })
      .png()
      .toBuffer(),
  );
}
const rgbaAt = (img: DecodedImage, x: number, y: number) =>
  Array.from(img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4));

describe("decodeImage, exactly", () => {
  it("applies EXIF orientations 5 to 8 by swapping the sides before sizing, and 1 to 4 without", async () => {
    // 40 x 20, left half red, right half blue, as JPEG with an orientation tag.
    const raw = Buffer.alloc(40 * 20 * 3);
    for (let p = 0; p < 800; p++) raw.set(p % 40 < 20 ? [255, 0, 0] : [0, 0, 255], p * 3);
    const tagged = async (orientation: number) =>
      new Uint8Array(
        await sharp(raw, { raw: { width: 40, height: 20, channels: 3 } })
          .jpeg({ quality: 95 })
          .withMetadata({ orientation })
          .toBuffer(),
      );
    // 6: turned a quarter clockwise for display, 20 wide and 40 tall; the working size halves it.
    const six = await decodeImage(await tagged(6), { maxSide: 20 });
    expect([six.width, six.height]).toEqual([10, 20]);
    expect(rgbaAt(six, 5, 3)[0]).toBeGreaterThan(200); // the red half is now on top
    expect(rgbaAt(six, 5, 16)[2]).toBeGreaterThan(200);
    for (const orientation of [5, 7, 8]) {
      const img = await decodeImage(await tagged(orientation), { maxSide: 20 });
      expect([img.width, img.height], `orientation ${orientation}`).toEqual([10, 20]);
    }
    for (const orientation of [1, 3, 4]) {
      const img = await decodeImage(await tagged(orientation), { maxSide: 20 });
      expect([img.width, img.height], `orientation ${orientation}`).toEqual([20, 10]);
    }
  });

  it("sizes by the longer side, shrinking with Lanczos, enlarging only when asked", async () => {
    const bytes = await png(40, 20, (x, y) => [(x * 37 + y * 11) & 255, (x * 5) & 255, (y * 13) & 255, 255]);
    const small = await decodeImage(bytes, { maxSide: 30 });
    expect([small.width, small.height]).toEqual([30, 15]);
    const lanczos = await sharp(bytes).ensureAlpha().resize({ width: 30, height: 15, fit: "fill", kernel: "lanczos3" }).raw().toBuffer();
    expect(Buffer.from(small.data).equals(lanczos)).toBe(true);
    // Not enlarged by default; exactly its size untouched.
    const same = await decodeImage(bytes, { maxSide: 40 });
    expect([same.width, same.height]).toEqual([40, 20]);
    expect(Buffer.from(same.data).equals(await sharp(bytes).ensureAlpha().raw().toBuffer())).toBe(true);
    expect((await decodeImage(bytes, { maxSide: 80 })).width).toBe(40);
    const big = await decodeImage(bytes, { maxSide: 80, enlarge: true });
    expect([big.width, big.height]).toEqual([80, 40]);
    const cubic = await sharp(bytes).ensureAlpha().resize({ width: 80, height: 40, fit: "fill", kernel: "cubic" }).raw().toBuffer();
    expect(Buffer.from(big.data).equals(cubic)).toBe(true);
  });

  it("counts alpha as a silhouette when more than 0.5% of pixels are transparent (alpha under 128) and more than 0.5% opaque", async () => {
    // 100 x 100: 0.5% is 50 pixels.
    const first = (k: number, alpha: number) => png(100, 100, (x, y) => [90, 90, 90, y * 100 + x < k ? alpha : 255]);
    expect((await decodeImage(await first(51, 127), { maxSide: 100 })).hasAlpha).toBe(true);
    expect((await decodeImage(await first(51, 128), { maxSide: 100 })).hasAlpha).toBe(false);
    expect((await decodeImage(await first(50, 0), { maxSide: 100 })).hasAlpha).toBe(false);
    const opaqueFirst = (k: number) => png(100, 100, (x, y) => [90, 90, 90, y * 100 + x < k ? 255 : 0]);
    expect((await decodeImage(await opaqueFirst(51), { maxSide: 100 })).hasAlpha).toBe(true);
    expect((await decodeImage(await opaqueFirst(50), { maxSide: 100 })).hasAlpha).toBe(false);
  });
});

describe("foregroundMask, exactly", () => {
  const image = (w: number, h: number, at: (x: number, y: number) => [number, number, number, number], hasAlpha = false): DecodedImage => {
    const data = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set(at(x, y), (y * w + x) * 4);
    return { width: w, height: h, data, hasAlpha };
  };
  const inside = (x: number, y: number, x0: number, y0: number, x1: number, y1: number) => x >= x0 && x < x1 && y >= y0 && y < y1;

  it("takes pixels of alpha 128 and more as the subject", () => {
    const img = image(100, 100, (x, y) => [0, 0, 0, inside(x, y, 30, 30, 60, 60) ? 128 : 127], true);
    const mask = foregroundMask(img, { rmbg: false });
    expect(countSet(mask)).toBe(900);
    expect(mask[45 * 100 + 45]).toBe(1);
    expect(mask[10 * 100 + 10]).toBe(0);
  });

  it("keeps a subject of 0.5% of the frame, and falls back to the whole frame under it", () => {
    // A uniform grey backdrop with a red block of 10 x 5 = 50 pixels (0.5% of 100 x 100), then 7 x 7 = 49.
    const scene = (bw: number, bh: number) =>
      image(100, 100, (x, y) => (inside(x, y, 40, 40, 40 + bw, 40 + bh) ? [220, 30, 30, 255] : [120, 120, 120, 255]));
    const kept = foregroundMask(scene(10, 5), { rmbg: true });
    expect(countSet(kept)).toBe(50);
    expect(countSet(foregroundMask(scene(7, 7), { rmbg: true }))).toBe(10_000);
  });

  it("removes background colours within the default tolerance of 0.06 (normalised RGB distance), not beyond", () => {
    // Backdrop grey 100; a 10 x 10 corner 13 greys lighter (distance 13/255 = 0.051) joins the
    // backdrop; a block 20 greys lighter (0.078) in the middle stays the subject. (The corner is
    // under a quarter of the border, so the border's noise estimate stays 0.)
    const img = image(100, 100, (x, y) =>
      x < 10 && y < 10 ? [113, 113, 113, 255] : inside(x, y, 40, 40, 60, 60) ? [120, 120, 120, 255] : [100, 100, 100, 255],
    );
    const mask = foregroundMask(img, { rmbg: true });
    expect(countSet(mask)).toBe(400);
    expect(mask[50 * 100 + 50]).toBe(1);
    // A tolerance of 0.01 keeps the corner too (it touches the border but is not the backdrop's colour).
    const strict = foregroundMask(img, { rmbg: true, tolerance: 0.01 });
    expect(strict[5 * 100 + 5]).toBe(1);
    expect(countSet(strict)).toBe(400 + 100);
  });
});
