import "server-only";

import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { HEAD_BYTES } from "./sniff";
import { collectAfterLargeBody } from "@/lib/collect-garbage";
import { metrics, type Face } from "@/lib/metrics/registry";

/**
 * Streams a multipart/form-data request body to files on disk with busboy. Whole files
 * are never held in memory; size limits are checked while the bytes arrive, and on any
 * error the body is no longer read and everything written so far is deleted.
 */

interface StoredFile {
  field: string;
  /** As sent by the client, without directories; "" when none was given. */
  filename: string;
  /** The part's Content-Type as sent (untrusted; sniff `head`). */
  declaredType: string;
  /** Where the bytes are, under `dir`. */
  path: string;
  size: number;
  /** The first HEAD_BYTES bytes (fewer if the file is shorter). */
  head: Uint8Array;
}

export interface MultipartOptions {
  /** Directory (existing) that receives the files. */
  dir: string;
  maxFileBytes: (field: string) => number;
  /** Most file parts (of `fileFields`) in the whole request. */
  maxFiles: number;
  /** Most bytes of one text field value. */
  maxFieldBytes: number;
  /**
   * Field names whose file parts are stored as files. File parts of other names are read as
   * text fields (some clients send everything as files); text parts of these names stay text.
   */
  fileFields: Set<string>;
  /** Most text fields in the request; default 200. */
  maxFields?: number;
  /**
   * Most bytes of the whole body. A Content-Length above it is refused before anything is
   * read; a body that grows past it (chunked, or lying) is cut there.
   */
  maxBodyBytes?: number;
  /** A body that sends nothing for this long is given up (default 30 s). */
  idleTimeoutMs?: number;
  /** The face whose x3d_upload_bytes_total counts the bytes received (none: not counted). */
  countAs?: Face;
}

export interface MultipartResult {
  fields: Map<string, string[]>;
  files: Map<string, StoredFile[]>;
}

export type MultipartErrorKind =
  | "not-multipart"
  | "malformed"
  | "file-too-large"
  | "too-many-files"
  | "field-too-large"
  | "too-many-fields"
  | "body-too-large"
  | "timeout";

export class MultipartError extends Error {
  readonly kind: MultipartErrorKind;
  /** The field concerned, for file-too-large and field-too-large. */
  readonly field: string | undefined;
  constructor(kind: MultipartErrorKind, message: string, field?: string) {
    super(message);
    this.name = "MultipartError";
    this.kind = kind;
    this.field = field;
  }
}

/** Appends and returns the index, so values that arrive later keep their part order. */
/** Drains a part that is not wanted (busboy only finishes once every part is consumed). */
function discard(file: Readable): void {
  file.on("error", () => {});
  file.resume();
}

function push<T>(map: Map<string, T[]>, key: string, value: T): number {
  const list = map.get(key);
  if (list) return list.push(value) - 1;
  map.set(key, [value]);
  return 0;
}

/** Counts bytes, keeps the head, and fails as soon as `limit` is passed. */
class Meter extends Transform {
  size = 0;
  private readonly headParts: Buffer[] = [];
  private headLength = 0;
  constructor(
    private readonly limit: number,
    private readonly onOver: () => Error,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit) return cb(this.onOver());
    if (this.headLength < HEAD_BYTES) {
      const part = Buffer.from(chunk.subarray(0, HEAD_BYTES - this.headLength));
      this.headParts.push(part);
      this.headLength += part.length;
    }
    cb(null, chunk);
  }
  head(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.headParts));
  }
}

/** Most bytes read and dropped after a refusal (so the client sees the answer) before the connection is cut. */
const DRAIN_LIMIT = 8 * 1024 * 1024;
const IDLE_TIMEOUT_MS = 30_000;

export async function parseMultipart(request: Request, opts: MultipartOptions): Promise<MultipartResult> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !/;\s*boundary=/i.test(contentType)) {
    throw new MultipartError("not-multipart", "Content-Type must be multipart/form-data with a boundary");
  }
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      limits: {
        fieldSize: opts.maxFieldBytes,
        fields: opts.maxFields ?? 200,
        fieldNameSize: 200,
        headerPairs: 50,
      },
    });
  } catch (e) {
    throw new MultipartError("not-multipart", `Invalid multipart Content-Type: ${(e as Error).message}`);
  }
  if (!request.body) throw new MultipartError("malformed", "The request has no body");
  const maxBody = opts.maxBodyBytes ?? Infinity;
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > maxBody) {
    void request.body.cancel().catch(() => {});
    throw new MultipartError("body-too-large", `The request is ${declared} bytes, at most ${maxBody}`);
  }
  const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);

  const fields = new Map<string, string[]>();
  const files = new Map<string, StoredFile[]>();
  const written: string[] = [];
  /** Settles when each part's writing (or reading) is over, whatever the outcome. */
  const pending: Promise<unknown>[] = [];
  let failure: MultipartError | undefined;
  let fileCount = 0;
  let fail: (e: MultipartError) => void = () => {};

  const done = new Promise<void>((resolve, reject) => {
    fail = (e) => {
      if (failure) return;
      failure = e;
      source.unpipe(bb);
      bb.destroy();
      // Read and drop the rest of the body (up to a cap) instead of cutting the connection:
      // HTTP/1.1 clients still uploading would see a reset instead of our error answer.
      let dropped = 0;
      source.on("data", (chunk: Buffer) => {
        dropped += chunk.length;
        if (dropped > DRAIN_LIMIT || received > maxBody) source.destroy();
      });
      if (e.kind === "timeout" || e.kind === "body-too-large") source.destroy();
      else source.resume();
      reject(e);
    };
    bb.on("close", resolve);
  });
  // The body's size and pace, whatever the parts: cut past maxBody, give up when it stalls.
  let received = 0;
  const idleMs = opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const idle = setTimeout(() => fail(new MultipartError("timeout", `The request body sent nothing for ${idleMs / 1000} s`)), idleMs);
  source.on("data", (chunk: Buffer) => {
    received += chunk.length;
    idle.refresh();
    if (received > maxBody && !failure) fail(new MultipartError("body-too-large", `The request is larger than ${maxBody} bytes`));
  });
  source.once("close", () => {
    clearTimeout(idle);
    if (opts.countAs) metrics().uploadBytes.inc({ face: opts.countAs }, received);
    collectAfterLargeBody(received);
  });
  bb.once("close", () => clearTimeout(idle));
  done.catch(() => {}); // observed below, after cleanup

  const storeFile = (field: string, file: Readable, filename: string, declaredType: string) => {
    if (++fileCount > opts.maxFiles) {
      discard(file);
      return fail(new MultipartError("too-many-files", `At most ${opts.maxFiles} files may be uploaded`));
    }
    const safeName = field.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40);
    const filePath = path.join(opts.dir, `${safeName}-${randomUUID()}.upload`);
    written.push(filePath);
    const limit = opts.maxFileBytes(field);
    const meter = new Meter(limit, () => new MultipartError("file-too-large", `File "${field}" is larger than ${limit} bytes`, field));
    const out = createWriteStream(filePath, { flags: "wx" });
    // The file is only gone for sure once its stream has closed (it opens asynchronously).
    const closed = new Promise<void>((resolve) => out.once("close", resolve));
    const stored: StoredFile = { field, filename, declaredType, path: filePath, size: 0, head: new Uint8Array() };
    push(files, field, stored);
    const written$ = pipeline(file, meter, out).then(
      () => {
        stored.size = meter.size;
        stored.head = meter.head();
      },
      (e: unknown) => fail(e instanceof MultipartError ? e : new MultipartError("malformed", `Could not store "${field}": ${String(e)}`)),
    );
    pending.push(written$, closed);
  };

  /** Text fields sent as file parts that were too long to be one: dropped once parsing ends. */
  const skipped: { field: string; index: number }[] = [];
  const readTextFile = (field: string, file: Readable) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const index = push(fields, field, "");
    pending.push(
      new Promise<void>((resolve) => {
        file.on("data", (c: Buffer) => {
          length += c.length;
          if (length <= opts.maxFieldBytes) chunks.push(c);
          else chunks.length = 0; // read on to the part's end, keeping nothing
        });
        file.on("error", (e: Error) => {
          fail(new MultipartError("malformed", String(e)));
          resolve();
        });
        file.on("end", () => {
          // A file longer than any text field, under a field that takes no file: a stray
          // attachment beside the real inputs. It is skipped, not the whole request refused.
          if (length > opts.maxFieldBytes) skipped.push({ field, index });
          else fields.get(field)?.splice(index, 1, Buffer.concat(chunks).toString("utf8"));
          resolve();
        });
      }),
    );
  };

  bb.on("file", (field, file, info) => {
    if (failure) return discard(file);
    if (opts.fileFields.has(field)) storeFile(field, file, info.filename ?? "", info.mimeType);
    else readTextFile(field, file);
  });
  bb.on("field", (field, value, info) => {
    if (failure) return;
    if (info.nameTruncated) return fail(new MultipartError("malformed", "A field name is too long"));
    if (info.valueTruncated) {
      return fail(new MultipartError("field-too-large", `Field "${field}" is longer than ${opts.maxFieldBytes} bytes`, field));
    }
    push(fields, field, value);
  });
  bb.on("fieldsLimit", () => fail(new MultipartError("too-many-fields", "Too many form fields")));
  bb.on("error", (e) => fail(new MultipartError("malformed", `Malformed multipart body: ${(e as Error).message}`)));
  source.on("error", (e) => fail(new MultipartError("malformed", `Reading the request body failed: ${e.message}`)));
  source.pipe(bb);

  try {
    await done;
    // busboy is done parsing; files may still be flushing to disk.
    while (pending.length > 0 && !failure) await Promise.all(pending.splice(0));
    if (failure) throw failure;
    for (const { field, index } of skipped.sort((a, b) => b.index - a.index)) {
      const list = fields.get(field);
      if (!list) continue;
      list.splice(index, 1);
      if (list.length === 0) fields.delete(field);
    }
    return { fields, files };
  } catch (e) {
    await Promise.allSettled(pending);
    await Promise.all(written.map((p) => rm(p, { force: true })));
    throw e;
  }
}
