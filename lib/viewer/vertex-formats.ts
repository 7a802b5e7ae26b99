/**
 * Widens vertex attributes whose element is not a multiple of 4 bytes (3 × int16, 3 × int8:
 * the quantised positions and normals of a display copy) to float32 before the first draw.
 * WebGL takes them, but ANGLE converts them on upload wherever the GPU API has no such vertex
 * format: Direct3D 11 has no 3-component 8/16-bit formats, and SwiftShader's Vulkan has none
 * either. There the conversion costs the GPU process about 160 ms for a 1M-vertex display copy;
 * here it is a tight loop of about 30 ms. Aligned attributes (uv as 2 × uint16, 4-component
 * octahedral normals) are left as they are. Values are exactly what the shader would read
 * (normalised integers mapped as WebGL does, signed ones clamped at −1).
 */
import { BufferAttribute, type BufferGeometry, InterleavedBufferAttribute, type Object3D } from "three";

type IntArray = Int8Array | Uint8Array | Int16Array | Uint16Array;

/**
 * The array when it is one of the integer types, with the divisor WebGL maps its normalised
 * values by (signed: clamped at −1).
 */
function intArray(array: ArrayLike<number>): { ints: IntArray; scale: number } | undefined {
  if (array instanceof Int8Array) return { ints: array, scale: 127 };
  if (array instanceof Uint8Array) return { ints: array, scale: 255 };
  if (array instanceof Int16Array) return { ints: array, scale: 32767 };
  if (array instanceof Uint16Array) return { ints: array, scale: 65535 };
  return undefined;
}

/** The attribute's source array, its scale, and where its elements start and step (in array elements). */
function layout(
  attribute: BufferAttribute | InterleavedBufferAttribute,
): { array: IntArray; scale: number; offset: number; stride: number } | null {
  const source = intArray(attribute instanceof InterleavedBufferAttribute ? attribute.data.array : attribute.array);
  if (!source) return null;
  const { ints: array, scale } = source;
  if ((array.BYTES_PER_ELEMENT * attribute.itemSize) % 4 === 0) return null; // a format every GPU API has
  return attribute instanceof InterleavedBufferAttribute
    ? { array, scale, offset: attribute.offset, stride: attribute.data.stride }
    : { array, scale, offset: 0, stride: attribute.itemSize };
}

/** A float32 copy of an unaligned integer attribute, or null when it is fine as it is. */
export function widenAttribute(attribute: BufferAttribute | InterleavedBufferAttribute): BufferAttribute | null {
  const source = layout(attribute);
  if (!source) return null;
  const { array, offset, stride } = source;
  const { count, itemSize, normalized } = attribute;
  const scale = normalized ? source.scale : 1;
  const signed = array instanceof Int8Array || array instanceof Int16Array;
  const out = new Float32Array(count * itemSize);
  for (let i = 0, o = 0, s = offset; i < count; i++, s += stride) {
    for (let c = 0; c < itemSize; c++, o++) {
      const v = (array[s + c] ?? NaN) / scale; // in range for a well-formed attribute; NaN as a read past the end gives
      out[o] = normalized && signed && v < -1 ? -1 : v;
    }
  }
  const widened = new BufferAttribute(out, itemSize, false);
  widened.name = attribute.name;
  return widened;
}

/** Widens the unaligned attributes of every mesh under `root`; returns how many it replaced. */
export function widenUnalignedAttributes(root: Object3D): number {
  let replaced = 0;
  const seen = new Set<BufferGeometry>();
  root.traverse((node) => {
    const geometry = (node as { geometry?: BufferGeometry }).geometry;
    if (!geometry?.isBufferGeometry || seen.has(geometry)) return;
    seen.add(geometry);
    for (const [name, attribute] of Object.entries(geometry.attributes)) {
      const widened = widenAttribute(attribute);
      if (!widened) continue;
      geometry.setAttribute(name, widened);
      replaced++;
    }
  });
  return replaced;
}
