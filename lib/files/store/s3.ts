import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { checkKey, type FileStore, type ListedFile, type LocalCopy, type LocalFolder, type OpenedFile, type StoredInfo } from "./types";

/** Files above this go up in parts (lib-storage's Upload), a few at a time, never whole in memory. */
const MULTIPART_BYTES = 16 * 1024 * 1024;
const PART_BYTES = 8 * 1024 * 1024;

const notFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || error.name === "NotFound" || error.name === "NoSuchKey");

export interface S3Location {
  bucket: string;
  /** Put before every key, without a trailing slash; may be empty. */
  prefix: string;
}

/** `s3://bucket/some/prefix` as its bucket and prefix. */
export function parseS3Url(url: string): S3Location {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!match) throw new Error(`not an s3:// address: ${url}`);
  return { bucket: match[1] as string, prefix: (match[2] as string).replace(/^\/+|\/+$/g, "") };
}

/**
 * Stored files as objects of an S3-compatible bucket. The client takes its credentials, region
 * and endpoint from the SDK's standard environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 * AWS_REGION, AWS_ENDPOINT_URL_S3). Checksums are sent and checked only where S3 requires
 * them: several S3-compatible servers refuse the SDK's newer default (aws-chunked bodies with
 * trailing CRC32s).
 */
export class S3Store implements FileStore {
  readonly kind = "s3";
  private readonly client: S3Client;
  private readonly scratch: string;

  constructor(
    private readonly location: S3Location,
    options: { forcePathStyle: boolean; client?: S3Client },
  ) {
    // The SDK warns once, at the first client, that its releases after January 2027 will need
    // Node 22; the release installed here runs on Node 20 (package.json's engines), and the
    // warning would land in the log as an error at every start. An operator's own value wins.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
    this.client =
      options.client ??
      new S3Client({
        forcePathStyle: options.forcePathStyle,
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      });
    this.scratch = path.join(
      os.tmpdir(),
      `x3d-scratch-${crypto.createHash("sha256").update(`${location.bucket}/${location.prefix}`).digest("hex").slice(0, 12)}`,
    );
  }

  private objectKey(key: string): string {
    checkKey(key);
    return this.location.prefix ? `${this.location.prefix}/${key}` : key;
  }

  private storeKey(objectKey: string): string {
    return this.location.prefix ? objectKey.slice(this.location.prefix.length + 1) : objectKey;
  }

  scratchRoot(): string {
    return this.scratch;
  }

  async putFile(key: string, from: string, contentType?: string): Promise<void> {
    const { size } = await fsp.stat(from);
    const params = { Bucket: this.location.bucket, Key: this.objectKey(key), ContentType: contentType ?? "application/octet-stream" };
    if (size > MULTIPART_BYTES) {
      await new Upload({
        client: this.client,
        params: { ...params, Body: fs.createReadStream(from) },
        partSize: PART_BYTES,
        queueSize: 2,
      }).done();
    } else {
      await this.client.send(new PutObjectCommand({ ...params, Body: fs.createReadStream(from), ContentLength: size }));
    }
    await fsp.rm(from, { force: true });
  }

  async putBytes(key: string, bytes: Uint8Array, contentType?: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.location.bucket,
        Key: this.objectKey(key),
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: contentType ?? "application/octet-stream",
      }),
    );
  }

  async stat(key: string): Promise<StoredInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }));
      return {
        size: head.ContentLength ?? 0,
        etag: strongEtag(head.ETag),
        lastModified: head.LastModified?.getTime() ?? 0,
      };
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async open(key: string): Promise<OpenedFile | null> {
    const info = await this.stat(key);
    if (!info) return null;
    return {
      ...info,
      stream: async (start, end) => {
        // If-Match: the bytes are those of the object just described, or the read fails.
        const got = await this.client.send(
          new GetObjectCommand({
            Bucket: this.location.bucket,
            Key: this.objectKey(key),
            Range: `bytes=${start}-${end}`,
            IfMatch: info.etag,
          }),
        );
        if (!got.Body) throw new Error(`no body for ${key}`);
        return got.Body.transformToWebStream() as ReadableStream<Uint8Array>;
      },
    };
  }

  async readBytes(key: string): Promise<Uint8Array | null> {
    try {
      const got = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }));
      return got.Body ? await got.Body.transformToByteArray() : new Uint8Array();
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async localCopy(key: string): Promise<LocalCopy | null> {
    let got;
    try {
      got = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "x3d-copy-"));
    const file = path.join(dir, key.split("/").pop() as string);
    const release = () => fsp.rm(dir, { recursive: true, force: true });
    try {
      await pipeline(got.Body as Readable, fs.createWriteStream(file));
    } catch (error) {
      await release();
      throw error;
    }
    return { path: file, release };
  }

  async folder(prefix: string): Promise<LocalFolder> {
    checkKey(prefix);
    await fsp.mkdir(this.scratch, { recursive: true });
    const dir = await fsp.mkdtemp(path.join(this.scratch, "folder-"));
    return {
      path: dir,
      fetch: async (name) => {
        const copy = await this.localCopy(`${prefix}/${name}`);
        if (!copy) return null;
        const local = path.join(dir, name);
        await fsp.rename(copy.path, local);
        await copy.release();
        return local;
      },
      keep: (name, contentType) => this.putFile(`${prefix}/${name}`, path.join(dir, name), contentType),
      release: () => fsp.rm(dir, { recursive: true, force: true }),
    };
  }

  async copy(from: string, to: string): Promise<boolean> {
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.location.bucket,
          Key: this.objectKey(to),
          CopySource: `${this.location.bucket}/${this.objectKey(from).split("/").map(encodeURIComponent).join("/")}`,
        }),
      );
      return true;
    } catch (error) {
      if (notFound(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.location.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      batch = [];
    };
    for await (const file of this.list(prefix)) {
      batch.push(this.objectKey(file.key));
      if (batch.length === 1000) await flush();
    }
    await flush();
  }

  async *list(prefix: string): AsyncIterable<ListedFile> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: `${this.objectKey(prefix)}/`, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield {
          key: this.storeKey(object.Key),
          size: object.Size ?? 0,
          lastModified: object.LastModified?.getTime() ?? 0,
          etag: strongEtag(object.ETag),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

/** S3's ETag as a strong, quoted tag (some servers leave the quotes off). */
function strongEtag(etag: string | undefined): string {
  const bare = (etag ?? "").replace(/^W\//, "").replace(/^"|"$/g, "");
  return `"${bare}"`;
}
