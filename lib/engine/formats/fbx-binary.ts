/**
 * Binary FBX encoder (versions below 7500: 32-bit node offsets), modelled on Blender's
 * io_scene_fbx/encode_bin.py. A node record is EndOffset, NumProperties, PropertyListLen
 * (uint32 each), the name (uint8 length + bytes), its properties, then its children followed
 * by a 13-byte null record. Arrays larger than 128 bytes are zlib-compressed (encoding 1).
 */
import { deflateSync } from "node:zlib";

/** One encoded property: its type code byte followed by its payload. */
export type FbxProp = Uint8Array;

export interface FbxNode {
  name: string;
  props: FbxProp[];
  children: FbxNode[];
}

export const FBX_HEAD_MAGIC = new Uint8Array([...new TextEncoder().encode("Kaydara FBX Binary  "), 0x00, 0x1a, 0x00]);
/** Fixed FileId / CreationTime / footer id that Blender writes (the SDK ties them to the timestamp). */
export const FBX_FILE_ID = new Uint8Array([0x28, 0xb3, 0x2a, 0xeb, 0xb6, 0x24, 0xcc, 0xc2, 0xbf, 0xc8, 0xb0, 0x2a, 0xa9, 0x2b, 0xfc, 0xf1]);
export const FBX_CREATION_TIME = "1970-01-01 10:00:00:000";
export const FBX_FOOT_ID = new Uint8Array([0xfa, 0xbc, 0xab, 0x09, 0xd0, 0xc8, 0xd4, 0x66, 0xb1, 0x76, 0xfb, 0x83, 0x1c, 0xf7, 0x26, 0x7e]);
export const FBX_FOOT_MAGIC = new Uint8Array([
  0xf8, 0x5a, 0x8c, 0x6a, 0xde, 0xf5, 0xd9, 0x7e, 0xec, 0xe9, 0x0c, 0xe3, 0x75, 0x8f, 0x29, 0x0b,
]);

const SENTINEL = 13;
const encoder = new TextEncoder();

function scalar(code: string, size: number, set: (dv: DataView) => void): FbxProp {
  const out = new Uint8Array(1 + size);
  out[0] = code.charCodeAt(0);
  set(new DataView(out.buffer, 1));
  return out;
}
export const bool = (v: boolean): FbxProp => scalar("C", 1, (dv) => dv.setUint8(0, v ? 1 : 0));
export const int32 = (v: number): FbxProp => scalar("I", 4, (dv) => dv.setInt32(0, v, true));
export const float64 = (v: number): FbxProp => scalar("D", 8, (dv) => dv.setFloat64(0, v, true));
export const int64 = (v: number): FbxProp => scalar("L", 8, (dv) => dv.setBigInt64(0, BigInt(v), true));

function bytesProp(code: string, data: Uint8Array): FbxProp {
  const out = new Uint8Array(5 + data.length);
  out[0] = code.charCodeAt(0);
  new DataView(out.buffer).setUint32(1, data.length, true);
  out.set(data, 5);
  return out;
}

/** UTF-8 string. Object names use "Name\x00\x01Class" (the ASCII form is "Class::Name"). */
export const string = (v: string): FbxProp => bytesProp("S", encoder.encode(v));
export const raw = (v: Uint8Array): FbxProp => bytesProp("R", v);
/** "Name\x00\x01Class", the binary form of ASCII "Class::Name". */
export const nameClass = (name: string, cls: string): FbxProp => string(`${name}\x00\x01${cls}`);

function arrayProp(code: string, length: number, data: Uint8Array): FbxProp {
  const encoding = data.length > 128 ? 1 : 0;
  // Level 1: big geometry arrays compress nearly as well as at 6, several times faster.
  const payload = encoding === 1 ? deflateSync(data, { level: 1 }) : data;
  const out = new Uint8Array(13 + payload.length);
  out[0] = code.charCodeAt(0);
  const dv = new DataView(out.buffer);
  dv.setUint32(1, length, true);
  dv.setUint32(5, encoding, true);
  dv.setUint32(9, payload.length, true);
  out.set(payload, 13);
  return out;
}

function typedBytes(a: Int32Array | Float32Array | Float64Array | BigInt64Array | Uint8Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

export const int32Array = (v: ArrayLike<number>): FbxProp =>
  arrayProp("i", v.length, typedBytes(v instanceof Int32Array ? v : Int32Array.from(v)));
export const float32Array = (v: ArrayLike<number>): FbxProp =>
  arrayProp("f", v.length, typedBytes(v instanceof Float32Array ? v : Float32Array.from(v)));
export const float64Array = (v: ArrayLike<number>): FbxProp =>
  arrayProp(
    "d",
    v.length,
    typedBytes(v instanceof Float64Array ? v : v instanceof Float32Array ? new Float64Array(v) : Float64Array.from(v)),
  );

export const node = (name: string, props: FbxProp[] = [], children: FbxNode[] = []): FbxNode => ({ name, props, children });

function propsLength(n: FbxNode): number {
  let len = 0;
  for (const p of n.props) len += p.length;
  return len;
}

/** Bytes of a node's children block, null record included (Blender's _calc_offsets_children). */
function childrenSize(children: FbxNode[], hasProps: boolean, isLast: boolean): number {
  if (children.length > 0) {
    let size = SENTINEL;
    children.forEach((c, i) => (size += nodeSize(c, i === children.length - 1)));
    return size;
  }
  return !hasProps && !isLast ? SENTINEL : 0;
}

function nodeSize(n: FbxNode, isLast: boolean): number {
  return 13 + encoder.encode(n.name).length + propsLength(n) + childrenSize(n.children, n.props.length > 0, isLast);
}

class Writer {
  readonly bytes: Uint8Array;
  readonly dv: DataView;
  offset = 0;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.dv = new DataView(this.bytes.buffer);
  }
  put(b: Uint8Array): void {
    this.bytes.set(b, this.offset);
    this.offset += b.length;
  }
  u32(v: number): void {
    this.dv.setUint32(this.offset, v, true);
    this.offset += 4;
  }
  zeros(n: number): void {
    this.offset += n; // the buffer starts zero-filled
  }
}

function writeChildren(w: Writer, children: FbxNode[], hasProps: boolean, isLast: boolean): void {
  if (children.length > 0) {
    children.forEach((c, i) => writeNode(w, c, i === children.length - 1));
    w.zeros(SENTINEL);
  } else if (!hasProps && !isLast) {
    w.zeros(SENTINEL);
  }
}

function writeNode(w: Writer, n: FbxNode, isLast: boolean): void {
  const name = encoder.encode(n.name);
  if (name.length > 255) throw new Error(`FBX node name too long: ${n.name}`);
  const end = w.offset + nodeSize(n, isLast);
  if (end > 0xffffffff) throw new Error("FBX file exceeds 4 GiB (32-bit offsets)");
  w.u32(end);
  w.u32(n.props.length);
  w.u32(propsLength(n));
  w.put(new Uint8Array([name.length]));
  w.put(name);
  for (const p of n.props) w.put(p);
  writeChildren(w, n.children, n.props.length > 0, isLast);
  if (w.offset !== end) throw new Error(`FBX node ${n.name}: scope length mismatch`);
}

/** Encodes top-level nodes as a complete binary FBX file (header, nodes, null record, footer). */
export function encodeFbxBinary(roots: FbxNode[], version = 7400): Uint8Array {
  if (version >= 7500) throw new Error("only FBX versions below 7500 (32-bit offsets) are supported");
  const head = FBX_HEAD_MAGIC.length + 4;
  const body = childrenSize(roots, false, false);
  const afterId = head + body + FBX_FOOT_ID.length + 4;
  const pad = Math.ceil(afterId / 16) * 16 - afterId || 16;
  const w = new Writer(afterId + pad + 4 + 120 + FBX_FOOT_MAGIC.length);
  w.put(FBX_HEAD_MAGIC);
  w.u32(version);
  writeChildren(w, roots, false, false);
  w.put(FBX_FOOT_ID);
  w.zeros(4 + pad);
  w.u32(version);
  w.zeros(120);
  w.put(FBX_FOOT_MAGIC);
  if (w.offset !== w.bytes.length) throw new Error("FBX size mismatch");
  return w.bytes;
}
