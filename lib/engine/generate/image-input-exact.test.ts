// Image input pinned on small synthetic images: EXIF orientation, the working size, when the
// alpha channel counts as a silhouette, and the background's colour tolerance, each at its edge.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { decodeImage, foregroundMask, removeUniformBackground, type DecodedImage } from "./image-input";
import { InputDecodeError } from "./errors";
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

describe("decodeImage's errors", () => {
  it("names what sharp could not read, as an InputDecodeError keeping sharp's error as its cause", async () => {
    const error = await decodeImage(new TextEncoder().encode("not an image"), { maxSide: 64 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputDecodeError);
    expect((error as Error).message).toBe("cannot decode image: Input buffer contains unsupported image format");
    expect(((error as Error).cause as Error).message).toBe("Input buffer contains unsupported image format");
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

  it("without rmbg and without alpha, the whole frame is the subject (no background is removed)", () => {
    // The same backdrop and block the rmbg cases below cut out.
    const img = image(100, 100, (x, y) => (inside(x, y, 40, 40, 50, 45) ? [220, 30, 30, 255] : [120, 120, 120, 255]));
    expect(countSet(foregroundMask(img, { rmbg: false }))).toBe(10_000);
    expect(countSet(foregroundMask(img, { rmbg: true }))).toBe(50);
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

describe("removeUniformBackground and the mask clean-up, exactly", () => {
  type RGB = [number, number, number];
  const BLACK: RGB = [0, 0, 0];
  const WHITE: RGB = [255, 255, 255];
  const GREY: RGB = [100, 100, 100];
  const image = (
    w: number,
    h: number,
    at: (x: number, y: number) => RGB | [number, number, number, number],
    hasAlpha = false,
  ): DecodedImage => {
    const data = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const c = at(x, y);
        data.set(c.length === 4 ? c : [...c, 255], (y * w + x) * 4);
      }
    return { width: w, height: h, data, hasAlpha };
  };
  const inside = (x: number, y: number, x0: number, y0: number, x1: number, y1: number) => x >= x0 && x < x1 && y >= y0 && y < y1;
  const foreground = (img: DecodedImage, tolerance = 0.06) => countSet(removeUniformBackground(img, tolerance));

  /**
   * A border of width 1 split exactly in half between black and white, w and h odd: the four
   * corners white, and along each side (w - 2 or h - 2 pixels, an odd count) black, white, black,
   * ..., black, one black more than white. So black = white = half the border, and the median
   * is black only because it takes the lower colour at an exact tie. The frame just inside the
   * border (x = 1, y = 1, x = w - 2, y = h - 2) is white, the rest black.
   * With black as the backdrop the border noise (75th percentile) is distance 1, the tolerance
   * 0.06 + 0.15 = 0.21, so every white pixel is the subject and every black one background
   * (the outer ones touch the border, the inner block is a pocket far over 0.1% of the image).
   * One white pixel more in the border (a ring one pixel thicker on any side adds the white
   * frame), or one black pixel fewer (a ring one pixel thinner on a side drops that side's
   * black majority), turns the backdrop white and the subject into the black pixels.
   */
  const balanced = (w: number, h: number, flip?: [number, number]) =>
    image(w, h, (x, y) => {
      if (flip && x === flip[0] && y === flip[1]) return WHITE;
      const top = y === 0 || y === h - 1;
      const side = x === 0 || x === w - 1;
      if (top && side) return WHITE;
      if (top) return (x - 1) % 2 === 0 ? BLACK : WHITE;
      if (side) return (y - 1) % 2 === 0 ? BLACK : WHITE;
      return x === 1 || y === 1 || x === w - 2 || y === h - 2 ? WHITE : BLACK;
    });

  it("takes the border statistics from exactly the outer ring: a square image balanced on a tie", () => {
    // 101 x 101: ring = max(1, round(101 * 0.01)) = 1; the border is 4 * 101 - 4 = 400 pixels,
    // 4 white corners and 4 sides of 99 (50 black, 49 white): 200 black, 200 white. The median
    // (histogram: 200 of 400 at 0, 200 * 2 >= 400) is black. White pixels: 200 in the border +
    // the frame inside it (4 * 99 - 4 = 392) = 592, the subject; black: 10201 - 592 = 9609.
    const mask = removeUniformBackground(balanced(101, 101), 0.06);
    expect(countSet(mask)).toBe(592);
    expect([mask[0], mask[1], mask[2], mask[101 + 1], mask[50 * 101 + 50]]).toEqual([1, 0, 1, 1, 0]);
    // Had the ring been one pixel thicker on the left (x = 1 in the border: + 99 white), on
    // top (y = 1), or thinner on the right (x = 100 out of it: - 50 black, - 49 white) or at
    // the bottom, or a stray entry counted in the border's size, white would be the majority
    // and the mask would be the 9609 black pixels. One border pixel turned white shows that:
    // 199 black of 400, the median is white (tolerance 0.21 again), the black pixels are the subject.
    expect(countSet(removeUniformBackground(balanced(101, 101, [1, 0]), 0.06))).toBe(9609 - 1);
  });

  it("takes the ring's width from the shorter side", () => {
    // 101 wide, 151 tall: ring = round(1.01) = 1 (from the longer side it would be round(1.51) = 2
    // and take in the white frame). Border 2 * 101 + 2 * 149 = 500: 4 white corners, top and
    // bottom 99 each (50 black, 49 white), left and right 149 each (75 black, 74 white): 250
    // black, 250 white, the median black. White pixels: 250 + the frame 2 * 99 + 2 * 149 - 4 =
    // 492, 742 in all; black 15251 - 742 = 14509 (what a white median would leave).
    const mask = removeUniformBackground(balanced(101, 151), 0.06);
    expect(countSet(mask)).toBe(742);
    expect(countSet(removeUniformBackground(balanced(151, 101), 0.06))).toBe(742);
  });

  it("uses a ring of 2 pixels from a shorter side of 150 (not the 1-pixel minimum)", () => {
    // 151 x 151: ring = round(1.51) = 2. The outer layer (600 pixels) is white but for its 4
    // corners, the second layer (4 * 149 - 4 = 592) and everything inside it black. Border 1192:
    // 592 + 4 = 596 black, exactly half, so the median is black; the subject is the 596 white
    // pixels. With a 1-pixel ring the border would be 596 white of 600 and the subject the
    // 22801 - 596 = 22205 black pixels.
    const img = image(151, 151, (x, y) => {
      const outer = x === 0 || y === 0 || x === 150 || y === 150;
      const corner = (x === 0 || x === 150) && (y === 0 || y === 150);
      return outer && !corner ? WHITE : BLACK;
    });
    expect(foreground(img)).toBe(596);
  });

  it("takes the border noise as the 75th percentile of the sorted distances", () => {
    // 101 x 101 grey 100, the top row red + 10 (distance 10 / (255 * sqrt 3) = 0.0226). Border
    // 400 pixels, 101 of them reddish: the median stays grey 100. Sorted, the distances are 299
    // zeros and 101 of 0.0226; the 75th percentile (index 300) is 0.0226, the tolerance
    // 0.06 + 2 * 0.0226 = 0.1053. (In border order index 300 is the bottom row's second pixel, 0.)
    // A 10 x 10 block red + 40 (0.0906) is within it, so background; a 10 x 10 block red + 47
    // (0.1064) is not, the subject: 100 pixels. (Red + 46 would be 0.1042, background.)
    const img = image(101, 101, (x, y) =>
      y === 0 ? [110, 100, 100] : inside(x, y, 20, 20, 30, 30) ? [140, 100, 100] : inside(x, y, 60, 60, 70, 70) ? [147, 100, 100] : GREY,
    );
    const mask = removeUniformBackground(img, 0.06);
    expect(countSet(mask)).toBe(100);
    expect(mask[65 * 101 + 65]).toBe(1);
    expect(mask[25 * 101 + 25]).toBe(0);
    const edge = image(101, 101, (x, y) => (y === 0 ? [110, 100, 100] : inside(x, y, 60, 60, 70, 70) ? [146, 100, 100] : GREY));
    expect(foreground(edge)).toBe(0);
  });

  it("counts a colour exactly at the tolerance as background, by its full RGB distance", () => {
    // 100 x 100 grey 100, border uniform (noise 0), so the tolerance is the one given: here
    // exactly the distance of one channel 13 away, 13 / (255 * sqrt 3) = 0.0294 as float32.
    // Blocks of 10 x 10: red + 13 and green + 13 sit exactly at it (background), red + 14 is
    // beyond (the subject, 100 pixels), and red + 8, green + 8, blue + 8 together are
    // 8 * sqrt 3 / (255 * sqrt 3) = 0.0314 away, beyond too (100 more).
    const at13 = Math.fround(13 * (1 / (255 * Math.sqrt(3))));
    const img = image(100, 100, (x, y) =>
      inside(x, y, 10, 10, 20, 20)
        ? [113, 100, 100]
        : inside(x, y, 30, 30, 40, 40)
          ? [100, 113, 100]
          : inside(x, y, 50, 50, 60, 60)
            ? [114, 100, 100]
            : inside(x, y, 70, 70, 80, 80)
              ? [108, 108, 108]
              : GREY,
    );
    const mask = removeUniformBackground(img, at13);
    expect(countSet(mask)).toBe(200);
    expect([mask[15 * 100 + 15], mask[35 * 100 + 35], mask[55 * 100 + 55], mask[75 * 100 + 75]]).toEqual([0, 0, 1, 1]);
  });

  it("drops enclosed background-coloured pockets of 0.1% of the image and more, keeps smaller ones, and always drops what touches the border", () => {
    // 100 x 100 grey, a red 30 x 30 block with two grey holes: 2 x 5 = 10 pixels (0.1% of
    // 10000, background) and 3 x 3 = 9 (kept as subject). The corner pixel (0, 0) is grey but
    // cut off from the backdrop by two red pixels (1, 0) and (0, 1): a one-pixel region on the
    // border, background. Subject: 900 - 10 + 2 = 892.
    const img = image(100, 100, (x, y) =>
      inside(x, y, 35, 35, 37, 40) || inside(x, y, 50, 50, 53, 53)
        ? GREY
        : inside(x, y, 30, 30, 60, 60) || (x === 1 && y === 0) || (x === 0 && y === 1)
          ? [220, 30, 30]
          : GREY,
    );
    const mask = removeUniformBackground(img, 0.06);
    expect(countSet(mask)).toBe(892);
    expect([mask[0], mask[1], mask[36 * 100 + 36], mask[51 * 100 + 51]]).toEqual([0, 1, 0, 1]);
  });

  it("cleans an alpha silhouette: specks under 0.2% of the image go, holes under 0.05% are filled", () => {
    // 100 x 100: minArea = max(4, round(10000 * 0.002)) = 20, maxHole = round(10000 * 0.0005) = 5.
    // Opaque: a 30 x 30 block with a transparent 1 x 5 hole (stays) and a 2 x 2 hole (filled),
    // a separate 4 x 5 speck of 20 pixels (kept) and a 1 x 19 line (removed).
    // Subject: 900 - 5 + 20 = 915.
    const opaque = (x: number, y: number) =>
      (inside(x, y, 10, 10, 40, 40) && !inside(x, y, 15, 15, 16, 20) && !inside(x, y, 30, 30, 32, 32)) ||
      inside(x, y, 60, 10, 64, 15) ||
      inside(x, y, 60, 50, 61, 69);
    const img = image(100, 100, (x, y) => [50, 50, 50, opaque(x, y) ? 255 : 0], true);
    const mask = foregroundMask(img, { rmbg: false });
    expect(countSet(mask)).toBe(915);
    expect([mask[17 * 100 + 15], mask[30 * 100 + 30], mask[12 * 100 + 61], mask[55 * 100 + 60]]).toEqual([0, 1, 1, 0]);
  });
});
