// The two backends of the file store keep one contract: the same calls give the same answers on
// a folder and on a real S3-compatible server (s3rver).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3_BUCKET, startS3, type TestS3 } from "@/test/harness/s3-server";
import { tempDir } from "@/test/harness/temp-dir";
import { LocalStore } from "./local";
import { parseS3Url, S3Store } from "./s3";
import { checkKey, type FileStore } from "./types";

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

async function keys(store: FileStore, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const file of store.list(prefix)) found.push(file.key);
  return found.sort();
}

let s3: TestS3;
const saved: Record<string, string | undefined> = {};
const local = new LocalStore(tempDir("store-local"));
const work = tempDir("store-work");
const s3Files = tempDir("store-s3");

beforeAll(async () => {
  s3 = await startS3(s3Files);
  // The SDK reads its endpoint and credentials from the environment, as in production.
  for (const [name, value] of Object.entries(s3.env)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await s3?.close();
});

const backends: [string, () => FileStore][] = [
  ["a folder", () => local],
  ["S3 (s3rver)", () => new S3Store(parseS3Url(`s3://${S3_BUCKET}/some/prefix`), { forcePathStyle: true })],
];

describe.each(backends)("the file store on %s", (_name, make) => {
  let store: FileStore;
  beforeAll(() => {
    store = make();
  });
  // The S3 backend's scratch folder is the system's, not a tempDir: remove it after.
  afterAll(() => {
    if (store.kind === "s3") fs.rmSync(store.scratchRoot(), { recursive: true, force: true });
  });

  it("stores bytes and a file, and reads them back whole and by range", async () => {
    await store.putBytes("t/a/one.txt", new TextEncoder().encode("hello, world"));
    const file = path.join(work, `${store.kind}-two.bin`);
    const big = Buffer.alloc(20 * 1024 * 1024 + 7, 7); // above the multipart threshold
    big.write("start", 0);
    big.write("end", big.length - 3);
    fs.writeFileSync(file, big);
    await store.putFile("t/a/two.bin", file, "application/octet-stream");
    expect(fs.existsSync(file)).toBe(false); // moved or uploaded, then gone

    expect(new TextDecoder().decode((await store.readBytes("t/a/one.txt")) ?? undefined)).toBe("hello, world");
    const opened = await store.open("t/a/two.bin");
    expect(opened?.size).toBe(big.length);
    expect(opened?.etag).toMatch(/^"[^"]+"$/);
    expect(await text(await opened!.stream(0, 4))).toBe("start");
    expect(await text(await opened!.stream(big.length - 3, big.length - 1))).toBe("end");
    const info = await store.stat("t/a/one.txt");
    expect(info?.size).toBe(12);
    expect(Math.abs(info!.lastModified - Date.now())).toBeLessThan(60_000);
  }, 60_000);

  it("answers null for what is not there", async () => {
    expect(await store.stat("t/none")).toBeNull();
    expect(await store.open("t/none")).toBeNull();
    expect(await store.readBytes("t/none")).toBeNull();
    expect(await store.localCopy("t/none")).toBeNull();
    expect(await store.copy("t/none", "t/other")).toBe(false);
    expect(await keys(store, "nothing-here")).toEqual([]);
  });

  it("gives a local file with the bytes, and copies inside the store", async () => {
    await store.putBytes("t/b/src.txt", new TextEncoder().encode("copy me"));
    const copy = await store.localCopy("t/b/src.txt");
    expect(fs.readFileSync(copy!.path, "utf8")).toBe("copy me");
    await copy!.release();
    expect(await store.copy("t/b/src.txt", "t/c/dst.txt")).toBe(true);
    expect(new TextDecoder().decode((await store.readBytes("t/c/dst.txt")) ?? undefined)).toBe("copy me");
  });

  it("lists at any depth under a prefix, and deletes one file or a whole prefix", async () => {
    await store.putBytes("t/d/x/1", new Uint8Array([1]));
    await store.putBytes("t/d/x/y/2", new Uint8Array([2]));
    await store.putBytes("t/dd/3", new Uint8Array([3])); // a longer name, not under t/d
    expect(await keys(store, "t/d")).toEqual(["t/d/x/1", "t/d/x/y/2"]);
    await store.delete("t/d/x/1");
    expect(await keys(store, "t/d")).toEqual(["t/d/x/y/2"]);
    await store.deletePrefix("t/d");
    expect(await keys(store, "t/d")).toEqual([]);
    expect(await keys(store, "t/dd")).toEqual(["t/dd/3"]);
  });

  it("lends a local folder for a prefix: fetch reads stored files, keep stores written ones", async () => {
    await store.putBytes("t/e/input.txt", new TextEncoder().encode("input"));
    const folder = await store.folder("t/e");
    const input = await folder.fetch("input.txt");
    expect(fs.readFileSync(input!, "utf8")).toBe("input");
    expect(await folder.fetch("absent.txt")).toBeNull();
    fs.writeFileSync(path.join(folder.path, "output.txt"), "output");
    await folder.keep("output.txt", "text/plain");
    await folder.release();
    expect(new TextDecoder().decode((await store.readBytes("t/e/output.txt")) ?? undefined)).toBe("output");
    expect(await keys(store, "t/e")).toEqual(["t/e/input.txt", "t/e/output.txt"]);
    if (store.kind === "s3") expect(fs.existsSync(folder.path)).toBe(false);
  });

  it("keeps its scratch space out of DATA_DIR on S3 only", () => {
    if (store.kind === "s3") expect(store.scratchRoot().startsWith(path.resolve(work, ".."))).toBe(true);
    else expect(store.scratchRoot()).toBe((store as LocalStore).pathOf("x").slice(0, -2));
  });
});

describe("keys", () => {
  it("refuse anything but a relative path of plain names", () => {
    for (const bad of ["", "/abs", "a/../b", "a/./b", "..", "a//b", "a/b/", "a\\b", "a b", "a\0b", "x".repeat(513)])
      expect(() => checkKey(bad), JSON.stringify(bad)).toThrow(/bad storage key/);
    for (const good of ["a", "studio/results/t1/result.glb", "engine/tasks/i3d_20261126_0123/cover.png", ".hidden", "a..b"])
      expect(checkKey(good)).toBe(good);
  });

  it("parse an s3:// address into bucket and prefix", () => {
    expect(parseS3Url("s3://bucket")).toEqual({ bucket: "bucket", prefix: "" });
    expect(parseS3Url("s3://bucket/")).toEqual({ bucket: "bucket", prefix: "" });
    expect(parseS3Url("s3://bucket/a/b/")).toEqual({ bucket: "bucket", prefix: "a/b" });
  });
});
