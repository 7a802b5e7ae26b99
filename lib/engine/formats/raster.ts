/**
 * Raster writers for images and depth maps: PNG, 24-bit BMP and OpenEXR.
 * A `GrayImage` holds one float per pixel, row-major from the top-left; PNG/BMP
 * quantise it from 0..1 (clamped), EXR stores it losslessly as 32-bit float.
 */
import { zlibSync } from "fflate";
import type { RasterImage } from "@/lib/engine/mesh/types";
import { concatBytes, crc32, encodePng } from "./common";

export interface GrayImage {
  width: number;
  height: number;
  gray: Float32Array;
}

function isGray(img: RasterImage | GrayImage): img is GrayImage {
  return "gray" in img;
}

function checkSize(width: number, height: number, length: number, perPixel: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new Error(`invalid image size ${width}x${height}`);
  }
  if (length !== width * height * perPixel) throw new Error(`image data length ${length} != ${width}x${height}x${perPixel}`);
}

const quantize = (x: number, max: number): number => Math.round(Math.min(1, Math.max(0, Number.isNaN(x) ? 0 : x)) * max);

/** RGBA images become 8-bit RGBA PNG; gray images become 16-bit grayscale PNG. */
export async function writePng(img: RasterImage | GrayImage): Promise<Uint8Array> {
  if (!isGray(img)) {
    checkSize(img.width, img.height, img.data.length, 4);
    return encodePng(img);
  }
  const { width, height, gray } = img;
  checkSize(width, height, gray.length, 1);
  const stride = 1 + width * 2;
  const raw = new Uint8Array(stride * height); // filter byte 0 (None) per row
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = quantize(gray[y * width + x]!, 65535);
      raw[y * stride + 1 + x * 2] = v >> 8;
      raw[y * stride + 2 + x * 2] = v & 0xff;
    }
  }
  const ihdr = new Uint8Array(13);
  const iv = new DataView(ihdr.buffer);
  iv.setUint32(0, width);
  iv.setUint32(4, height);
  ihdr.set([16, 0, 0, 0, 0], 8); // bit depth 16, colour type 0 (gray), deflate, adaptive filter, no interlace
  return concatBytes([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", zlibSync(raw, { level: 6 })),
    pngChunk("IEND", new Uint8Array(0)),
  ]);
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  v.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/** 24-bit BMP, bottom-up rows padded to 4 bytes. Alpha is dropped; gray is replicated to RGB. */
export async function writeBmp(img: RasterImage | GrayImage): Promise<Uint8Array> {
  const { width, height } = img;
  if (isGray(img)) checkSize(width, height, img.gray.length, 1);
  else checkSize(width, height, img.data.length, 4);
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const dataSize = rowSize * height;
  const out = new Uint8Array(54 + dataSize);
  const v = new DataView(out.buffer);
  out[0] = 0x42; // 'B'
  out[1] = 0x4d; // 'M'
  v.setUint32(2, out.length, true);
  v.setUint32(10, 54, true); // pixel data offset
  v.setUint32(14, 40, true); // BITMAPINFOHEADER
  v.setInt32(18, width, true);
  v.setInt32(22, height, true); // positive: bottom-up
  v.setUint16(26, 1, true); // planes
  v.setUint16(28, 24, true); // bits per pixel
  v.setUint32(30, 0, true); // BI_RGB
  v.setUint32(34, dataSize, true);
  v.setInt32(38, 2835, true); // 72 dpi
  v.setInt32(42, 2835, true);
  for (let y = 0; y < height; y++) {
    const row = 54 + (height - 1 - y) * rowSize;
    for (let x = 0; x < width; x++) {
      const o = row + x * 3;
      if (isGray(img)) {
        const g = quantize(img.gray[y * width + x]!, 255);
        out[o] = g;
        out[o + 1] = g;
        out[o + 2] = g;
      } else {
        const i = (y * width + x) * 4;
        out[o] = img.data[i + 2]!;
        out[o + 1] = img.data[i + 1]!;
        out[o + 2] = img.data[i]!;
      }
    }
  }
  return out;
}

/**
 * OpenEXR 2.0, single-part scanline, NO_COMPRESSION, one FLOAT channel "Y",
 * rows top to bottom (INCREASING_Y), one scanline per block.
 */
export async function writeExr(width: number, height: number, gray: Float32Array): Promise<Uint8Array> {
  checkSize(width, height, gray.length, 1);
  const attrs: Uint8Array[] = [];
  const attr = (name: string, type: string, value: Uint8Array): void => {
    const head = new Uint8Array(name.length + type.length + 6);
    let o = 0;
    for (const s of [name, type]) {
      for (let i = 0; i < s.length; i++) head[o++] = s.charCodeAt(i);
      head[o++] = 0;
    }
    new DataView(head.buffer).setInt32(o, value.length, true);
    attrs.push(head, value);
  };
  const bytes = (fill: (v: DataView) => void, size: number): Uint8Array => {
    const b = new Uint8Array(size);
    fill(new DataView(b.buffer));
    return b;
  };
  // chlist: name\0, int pixelType (2 = FLOAT), uchar pLinear, 3 reserved, int xSampling, int ySampling; then \0.
  attr(
    "channels",
    "chlist",
    bytes(
      (v) => {
        v.setUint8(0, 0x59); // 'Y'
        v.setInt32(2, 2, true);
        v.setInt32(10, 1, true);
        v.setInt32(14, 1, true);
      },
      2 + 16 + 1,
    ),
  );
  attr("compression", "compression", new Uint8Array([0]));
  const box = bytes((v) => {
    v.setInt32(8, width - 1, true);
    v.setInt32(12, height - 1, true);
  }, 16);
  attr("dataWindow", "box2i", box);
  attr("displayWindow", "box2i", box);
  attr("lineOrder", "lineOrder", new Uint8Array([0]));
  attr(
    "pixelAspectRatio",
    "float",
    bytes((v) => v.setFloat32(0, 1, true), 4),
  );
  attr("screenWindowCenter", "v2f", new Uint8Array(8));
  attr(
    "screenWindowWidth",
    "float",
    bytes((v) => v.setFloat32(0, 1, true), 4),
  );
  const header = concatBytes([new Uint8Array([0x76, 0x2f, 0x31, 0x01, 2, 0, 0, 0]), ...attrs, new Uint8Array([0])]);

  const blockSize = 8 + width * 4;
  const tableStart = header.length;
  const dataStart = tableStart + height * 8;
  const out = new Uint8Array(dataStart + height * blockSize);
  out.set(header, 0);
  const v = new DataView(out.buffer);
  for (let y = 0; y < height; y++) {
    const block = dataStart + y * blockSize;
    v.setBigUint64(tableStart + y * 8, BigInt(block), true);
    v.setInt32(block, y, true);
    v.setInt32(block + 4, width * 4, true);
    for (let x = 0; x < width; x++) v.setFloat32(block + 8 + x * 4, gray[y * width + x]!, true);
  }
  return out;
}
