/**
 * Minimal ZIP writer for stored (uncompressed) entries whose data starts at a
 * 64-byte aligned offset, as USDZ requires. Padding goes in the local header's
 * extra field (id 0x1986, like Pixar's usdzip).
 */
import { concatBytes, crc32, textEncoder } from "./common";

const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
const PAD_ID = 0x1986;

export interface StoredEntry {
  name: string;
  /** The entry's bytes, whole or as consecutive chunks. */
  data: Uint8Array | Uint8Array[];
}

export function zipStoredAligned(entries: StoredEntry[], align = 64): Uint8Array {
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const { name, data: d } of entries) {
    const parts = Array.isArray(d) ? d : [d];
    const size = parts.reduce((n, c) => n + c.length, 0);
    if (offset + size > 0xffffffff) throw new Error("USDZ archive exceeds 4 GiB");
    const nameBytes = textEncoder.encode(name);
    let pad = (align - ((offset + 30 + nameBytes.length) % align)) % align;
    if (pad > 0 && pad < 4) pad += align; // an extra field needs a 4-byte header
    let crc = 0;
    for (const c of parts) crc = crc32(c, 0, c.length, crc);
    const local = new Uint8Array(30 + nameBytes.length + pad);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true); // version needed
    lv.setUint16(6, 0, true); // flags
    lv.setUint16(8, 0, true); // method: stored
    lv.setUint16(10, 0, true); // time
    lv.setUint16(12, DOS_DATE, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, size, true);
    lv.setUint32(22, size, true);
    lv.setUint16(26, nameBytes.length, true);
    lv.setUint16(28, pad, true);
    local.set(nameBytes, 30);
    if (pad > 0) {
      lv.setUint16(30 + nameBytes.length, PAD_ID, true);
      lv.setUint16(32 + nameBytes.length, pad - 4, true);
    }
    const cd = new Uint8Array(46 + nameBytes.length);
    const cv = new DataView(cd.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true); // version made by
    cv.setUint16(6, 20, true); // version needed
    cv.setUint16(12, 0, true);
    cv.setUint16(14, DOS_DATE, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, size, true);
    cv.setUint32(24, size, true);
    cv.setUint16(28, nameBytes.length, true);
    cv.setUint32(42, offset, true);
    cd.set(nameBytes, 46);
    chunks.push(local, ...parts);
    central.push(cd);
    offset += local.length + size;
  }
  const cdBytes = concatBytes(central);
  return concatBytes([...chunks, cdBytes, endOfCentralDirectory(entries.length, cdBytes.length, offset)]);
}

/** The 22-byte end-of-central-directory record of a ZIP with `count` entries. */
export function endOfCentralDirectory(count: number, directoryBytes: number, directoryOffset: number): Uint8Array {
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, count, true);
  ev.setUint16(10, count, true);
  ev.setUint32(12, directoryBytes, true);
  ev.setUint32(16, directoryOffset, true);
  return end;
}

/** Offsets of each entry's data, read back from the local headers (for tests and validation). */
export function storedDataOffsets(zip: Uint8Array): Array<{ name: string; offset: number; size: number }> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const out: Array<{ name: string; offset: number; size: number }> = [];
  let o = 0;
  while (o + 30 <= zip.length && view.getUint32(o, true) === 0x04034b50) {
    const size = view.getUint32(o + 18, true);
    const nameLen = view.getUint16(o + 26, true);
    const extraLen = view.getUint16(o + 28, true);
    const name = new TextDecoder().decode(zip.subarray(o + 30, o + 30 + nameLen));
    const offset = o + 30 + nameLen + extraLen;
    out.push({ name, offset, size });
    o = offset + size;
  }
  return out;
}
