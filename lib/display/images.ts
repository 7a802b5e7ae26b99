/** Texture images for the glTF document built from a three.js scene (sharp does the pixels). */
import sharp from "sharp";

export interface EncodedImage {
  bytes: Uint8Array;
  mimeType: "image/png" | "image/jpeg";
}

const isPng = (b: Uint8Array): boolean => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;
const isJpeg = (b: Uint8Array): boolean => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

const asBytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/**
 * The image as glTF's core formats: PNG and JPEG as they are, anything else sharp can
 * decode re-encoded as PNG; null when it cannot be decoded (the material keeps its factors).
 */
export async function encodedImage(bytes: Uint8Array | undefined): Promise<EncodedImage | null> {
  if (!bytes || bytes.length === 0) return null;
  if (isPng(bytes)) return { bytes, mimeType: "image/png" };
  if (isJpeg(bytes)) return { bytes, mimeType: "image/jpeg" };
  try {
    return { bytes: asBytes(await sharp(bytes).png().toBuffer()), mimeType: "image/png" };
  } catch {
    return null;
  }
}

/**
 * A glTF metallic-roughness image from three's separate maps: G from the roughness map, B
 * from the metalness map (the channels three reads), 255 where a map is absent so its
 * factor alone applies. Sized like the roughness map (else the metalness map).
 */
export async function packMetalRough(roughness: Uint8Array | undefined, metalness: Uint8Array | undefined): Promise<Uint8Array | null> {
  try {
    const raw = async (b: Uint8Array, size?: { width: number; height: number }) => {
      let img = sharp(b).ensureAlpha();
      if (size) img = img.resize(size.width, size.height, { fit: "fill" });
      return img.raw().toBuffer({ resolveWithObject: true });
    };
    const first = roughness ? await raw(roughness) : metalness ? await raw(metalness) : null;
    if (!first) return null;
    const { width, height } = first.info;
    const r = roughness ? first.data : null;
    const m = metalness ? (roughness ? (await raw(metalness, { width, height })).data : first.data) : null;
    const out = Buffer.alloc(width * height * 4, 255);
    // Both are width x height RGBA (ensureAlpha), so every read is in range; `?? 0` stores
    // what a typed-array read out of range would have.
    for (let p = 0; p < width * height; p++) {
      if (r) out[p * 4 + 1] = r[p * 4 + 1] ?? 0;
      if (m) out[p * 4 + 2] = m[p * 4 + 2] ?? 0;
    }
    return asBytes(
      await sharp(out, { raw: { width, height, channels: 4 } })
        .png()
        .toBuffer(),
    );
  } catch {
    return null;
  }
}
