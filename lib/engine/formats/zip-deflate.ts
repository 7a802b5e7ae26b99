/**
 * ZIP writer for the OBJ and 3MF packages: entries are deflated chunk by chunk with native
 * zlib (level 1: the big text entries of multi-million-triangle meshes compress ~3x at a
 * fraction of level 6's time) or stored (PNGs, already compressed). Each chunk is
 * compressed with a sync flush, so the concatenated chunks form one valid deflate stream
 * and the uncompressed text is never held whole.
 */
import * as zlib from "node:zlib";
import { concatBytes, crc32, textEncoder } from "./common";
import { endOfCentralDirectory } from "./zip-store";

const DOS_DATE = ((2020 - 1980) << 9) | (1 << 5) | 1; // 2020-01-01, fixed for reproducible output
const LEVEL = 1;

const crc = (data: Uint8Array, seed: number): number => crc32(data, 0, data.length, seed);

/** One entry being written: feed it bytes, then close it. */
export class ZipEntryWriter {
  readonly chunks: Uint8Array[] = [];
  crc = 0;
  size = 0;
  compressedSize = 0;
  private pending: Uint8Array | undefined;

  constructor(
    readonly name: string,
    readonly deflate: boolean,
  ) {}

  /** Adds bytes (the caller may reuse `data` afterwards). */
  write(data: Uint8Array): void {
    if (data.length === 0) return;
    this.crc = crc(data, this.crc);
    this.size += data.length;
    if (!this.deflate) {
      this.push(data.slice());
      return;
    }
    // Keep one chunk back so the final one can be compressed with Z_FINISH.
    if (this.pending) this.push(zlib.deflateRawSync(this.pending, { level: LEVEL, finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    this.pending = data.slice();
  }

  close(): void {
    if (!this.deflate) return;
    this.push(zlib.deflateRawSync(this.pending ?? new Uint8Array(0), { level: LEVEL }));
    this.pending = undefined;
  }

  private push(b: Uint8Array): void {
    this.chunks.push(b);
    this.compressedSize += b.length;
  }
}

/** Assembles closed entries into a ZIP archive (no ZIP64: every size must stay below 4 GiB). */
export function zipEntries(entries: ZipEntryWriter[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    if (e.size > 0xffffffff || offset > 0xffffffff) throw new Error("ZIP entry exceeds 4 GiB");
    const name = textEncoder.encode(e.name);
    const method = e.deflate ? 8 : 0;
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, 0x0800, true); // UTF-8 names
    lv.setUint16(8, method, true);
    lv.setUint16(12, DOS_DATE, true);
    lv.setUint32(14, e.crc, true);
    lv.setUint32(18, e.compressedSize, true);
    lv.setUint32(22, e.size, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const cd = new Uint8Array(46 + name.length);
    const cv = new DataView(cd.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, 0x0800, true);
    cv.setUint16(10, method, true);
    cv.setUint16(14, DOS_DATE, true);
    cv.setUint32(16, e.crc, true);
    cv.setUint32(20, e.compressedSize, true);
    cv.setUint32(24, e.size, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    cd.set(name, 46);
    parts.push(local, ...e.chunks);
    central.push(cd);
    offset += local.length + e.compressedSize;
  }
  if (offset > 0xffffffff) throw new Error("ZIP archive exceeds 4 GiB");
  const cdBytes = concatBytes(central);
  return concatBytes([...parts, cdBytes, endOfCentralDirectory(entries.length, cdBytes.length, offset)]);
}

/** An entry with all its bytes at hand. */
export function zipEntry(name: string, data: Uint8Array | string, deflate: boolean): ZipEntryWriter {
  const e = new ZipEntryWriter(name, deflate);
  e.write(typeof data === "string" ? textEncoder.encode(data) : data);
  e.close();
  return e;
}
