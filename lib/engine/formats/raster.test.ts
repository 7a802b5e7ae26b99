import { describe, expect, it } from "vitest";
import { unzlibSync } from "fflate";
import { FloatType, RedFormat } from "three";
import { EXRLoader } from "three/examples/jsm/loaders/EXRLoader.js";
import { writeBmp, writeExr, writePng } from "./raster";
import { decodeImage } from "./common";
import { texture4x4 } from "./fixtures.test-helpers";

/** A 5x3 ramp (odd width exercises BMP row padding); pixel (x, y) = x / 4 * (y + 1) / 3. */
function ramp(): { width: number; height: number; gray: Float32Array } {
  const width = 5,
    height = 3;
  const gray = new Float32Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) gray[y * width + x] = (x / 4) * ((y + 1) / 3);
  return { width, height, gray };
}

describe("writeExr", () => {
  it("parses back in three.js EXRLoader with identical float values", async () => {
    const { width, height, gray } = ramp();
    gray[0] = 1234.5678; // depth maps are not limited to 0..1
    gray[1] = -2.5;
    const bytes = await writeExr(width, height, gray);
    const loader = new EXRLoader().setDataType(FloatType).setOutputFormat(RedFormat);
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    // EXRLoader also returns the parsed header (not in its type declarations).
    const tex = loader.parse(ab) as ReturnType<EXRLoader["parse"]> & { header: Record<string, unknown> };
    expect([tex.width, tex.height]).toEqual([width, height]);
    const data = tex.data as Float32Array;
    expect(data).toBeInstanceOf(Float32Array);
    expect(data).toHaveLength(width * height);
    // EXRLoader returns rows bottom-up (flipY = false, GL convention).
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) expect(data[(height - 1 - y) * width + x]).toBe(gray[y * width + x]);
    }
    expect(tex.header.compression).toBe("NO_COMPRESSION");
    expect(tex.header.channels).toEqual([expect.objectContaining({ name: "Y", pixelType: 2 })]);
    expect(tex.header.lineOrder).toBe("INCREASING_Y");
    expect(tex.header.pixelAspectRatio).toBe(1);
    expect(tex.header.screenWindowWidth).toBe(1);
    expect(tex.header.displayWindow).toEqual({ xMin: 0, yMin: 0, xMax: width - 1, yMax: height - 1 });
  });

  it("writes a valid offset table", async () => {
    const bytes = await writeExr(3, 2, new Float32Array([1, 2, 3, 4, 5, 6]));
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(v.getUint32(0, true)).toBe(20000630);
    const total = bytes.length;
    const block1 = Number(v.getBigUint64(total - 2 * (8 + 12) - 16 + 8, true));
    // Offsets point at blocks "y, size, 3 floats" laid out at the end of the file.
    expect(block1).toBe(total - (8 + 12));
    expect(v.getInt32(block1, true)).toBe(1);
    expect(v.getInt32(block1 + 4, true)).toBe(12);
    expect(v.getFloat32(block1 + 8, true)).toBe(4);
  });

  it("rejects a mismatched buffer", async () => {
    await expect(writeExr(4, 4, new Float32Array(3))).rejects.toThrow(/length/);
  });
});

describe("writePng", () => {
  it("encodes RGBA images losslessly", async () => {
    const img = texture4x4();
    const back = await decodeImage(await writePng(img));
    expect([back.width, back.height]).toEqual([4, 4]);
    expect(Array.from(back.data)).toEqual(Array.from(img.data));
  });

  it("encodes gray float images as 16-bit grayscale", async () => {
    const { width, height, gray } = ramp();
    const png = await writePng({ width, height, gray });
    const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
    expect(v.getUint32(16)).toBe(width);
    expect(v.getUint32(20)).toBe(height);
    expect([png[24], png[25]]).toEqual([16, 0]); // bit depth, colour type
    const idatLen = v.getUint32(33);
    expect(new TextDecoder().decode(png.subarray(37, 41))).toBe("IDAT");
    const raw = unzlibSync(png.subarray(41, 41 + idatLen));
    expect(raw).toHaveLength(height * (1 + width * 2));
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const o = y * (1 + width * 2) + 1 + x * 2;
        expect((raw[o]! << 8) | raw[o + 1]!).toBe(Math.round(gray[y * width + x]! * 65535));
      }
    }
    // sharp (libpng) accepts the file too.
    const meta = await decodeImage(png);
    expect([meta.width, meta.height]).toEqual([width, height]);
  });
});

describe("writeBmp", () => {
  it("writes 24-bit bottom-up rows padded to 4 bytes", async () => {
    const { width, height, gray } = ramp();
    const bmp = await writeBmp({ width, height, gray });
    const v = new DataView(bmp.buffer, bmp.byteOffset, bmp.byteLength);
    const rowSize = 16; // 5 * 3 = 15 -> padded to 16
    expect(new TextDecoder().decode(bmp.subarray(0, 2))).toBe("BM");
    expect(v.getUint32(2, true)).toBe(54 + rowSize * height);
    expect(v.getInt32(18, true)).toBe(width);
    expect(v.getInt32(22, true)).toBe(height);
    expect(v.getUint16(28, true)).toBe(24);
    // Top-left pixel is in the last stored row; bottom-right in the first.
    const px = (x: number, y: number): number => bmp[54 + (height - 1 - y) * rowSize + x * 3]!;
    expect(px(4, 0)).toBe(Math.round(gray[4]! * 255));
    expect(px(4, 2)).toBe(255);
    expect(px(0, 2)).toBe(0);
  });

  it("stores RGBA pixels as BGR", async () => {
    const img = texture4x4();
    const bmp = await writeBmp(img);
    // Row y = 3 is stored first; pixel (1, 3) = (64, 192, 128).
    expect(Array.from(bmp.subarray(54 + 3, 54 + 6))).toEqual([128, 192, 64]);
    expect(bmp.length).toBe(54 + 12 * 4);
  });
});
