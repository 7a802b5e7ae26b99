import "server-only";
import fs from "node:fs";

/**
 * A response body that streams a file from disk. Built on `fs.openAsBlob` rather than
 * `Readable.toWeb(createReadStream())`: on Node 20 the latter throws an uncaught
 * "Controller is already closed" when the client goes away mid-download.
 */
export async function fileBody(path: string): Promise<ReadableStream<Uint8Array>> {
  return (await fs.openAsBlob(path)).stream() as ReadableStream<Uint8Array>;
}
