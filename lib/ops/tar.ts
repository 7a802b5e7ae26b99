import { Header, Pax } from "tar";

/** One file of a tar archive: its name, size and time, and its bytes, read as the archive is written. */
export interface TarEntry {
  path: string;
  size: number;
  mtime: Date;
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

const BLOCK = 512;

/** The header block(s) of a file: ustar, with a PAX header first when the name does not fit (node-tar's encoders). */
function headerOf(entry: TarEntry): Buffer {
  const fields = { path: entry.path, mode: 0o600, size: entry.size, mtime: entry.mtime, type: "File" as const, uid: 0, gid: 0 };
  const block = Buffer.alloc(BLOCK);
  const needPax = new Header(fields).encode(block, 0);
  return needPax ? Buffer.concat([new Pax(fields).encode(), block]) : block;
}

/**
 * A tar archive of `entries`, as blocks to stream (node-tar's Header and Pax encode the headers;
 * the bytes are streamed here, never gathered). An entry whose body is not exactly its size
 * fails the archive rather than shifting every entry after it.
 */
export async function* tarBlocks(entries: AsyncIterable<TarEntry>): AsyncGenerator<Buffer> {
  for await (const entry of entries) {
    yield headerOf(entry);
    let written = 0;
    for await (const chunk of entry.body) {
      written += chunk.byteLength;
      if (written > entry.size) throw new Error(`${entry.path} grew while it was archived (over ${entry.size} bytes)`);
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
    if (written !== entry.size) throw new Error(`${entry.path} gave ${written} bytes, not ${entry.size}`);
    const padding = (BLOCK - (entry.size % BLOCK)) % BLOCK;
    if (padding) yield Buffer.alloc(padding);
  }
  // The end of the archive: two zero blocks.
  yield Buffer.alloc(2 * BLOCK);
}
