// No service code in the browser: the built client chunks (`npm run build`, .next/static) hold
// none of a set of literals that only lib/engine's generators, format writers, request
// handlers and background jobs contain. A literal known to be in client components is found,
// so the scan itself is shown to work. The import rules (.dependency-cruiser.cjs) keep the imports
// that would bring such code in out of the sources; this checks what the bundler made of them.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLIENT_DIR = path.join(ROOT, ".next/static");
/** Where the server build puts the service: route bundles and the engine's worker. */
const SERVER_DIRS = [path.join(ROOT, ".next/server"), path.join(ROOT, ".build")];

interface Literal {
  /** The source file that holds it. */
  file: string;
  literal: string;
}

/** Said only by the embedded service (not the shared error catalogue in lib/x3d, which the studio shows). */
const SERVICE_LITERALS: Literal[] = [
  { file: "lib/engine/generate/inflate.ts", literal: "the silhouette is too small" },
  { file: "lib/engine/generate/image-to-3d.ts", literal: "request_type 2 needs a mesh" },
  { file: "lib/engine/formats/fbx-binary.ts", literal: "FBX file exceeds 4 GiB (32-bit offsets)" },
  { file: "lib/engine/formats/common.ts", literal: "RasterImage data length mismatch" },
  { file: "lib/engine/formats/zip-store.ts", literal: "USDZ archive exceeds 4 GiB" },
  { file: "lib/engine/handlers/form-request.ts", literal: "send the request as multipart/form-data" },
  { file: "lib/engine/pool.ts", literal: "engine worker exited with code" },
  { file: "lib/engine/housekeeping.ts", literal: "[x3d engine] housekeeping failed" },
];

/** Said by client components: present in the client chunks. */
const CLIENT_LITERALS: Literal[] = [
  { file: "components/upload/upload-request.ts", literal: "The upload failed: the connection was lost. Try again." },
  { file: "components/tasks/task-labels.ts", literal: "Its credits were refunded." },
];

function* files(dir: string, pattern: RegExp): Generator<string> {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full, pattern);
    else if (pattern.test(entry.name)) yield full;
  }
}

function* sources(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (/\.(ts|tsx|mjs|js)$/.test(entry.name) && !/\.(test|spec)\./.test(entry.name)) yield full;
  }
}

/** The files among `paths` whose text holds `literal`. */
const holding = (texts: ReadonlyMap<string, string>, literal: string) =>
  [...texts].filter(([, text]) => text.includes(literal)).map(([file]) => path.relative(ROOT, file));

const read = (paths: Iterable<string>) => new Map([...paths].map((p) => [p, fs.readFileSync(p, "utf8")]));

let client: Map<string, string>;
let server: Map<string, string>;

beforeAll(() => {
  client = read(files(CLIENT_DIR, /\.js$/));
  if (client.size === 0) throw new Error(`no client chunks under ${CLIENT_DIR}: run npm run build first`);
  server = read(SERVER_DIRS.flatMap((dir) => [...files(dir, /\.(js|mjs)$/)]));
});

describe("the client bundle", () => {
  it("the literals are where this test says, and only there among the sources", () => {
    const code = read(["app", "components", "lib"].flatMap((dir) => [...sources(path.join(ROOT, dir))]));
    for (const { file, literal } of [...SERVICE_LITERALS, ...CLIENT_LITERALS]) {
      expect(holding(code, literal), literal).toEqual([file]);
    }
  });

  it("the service's literals survive the build (the server side has each)", () => {
    for (const { literal } of SERVICE_LITERALS) expect(holding(server, literal), literal).not.toEqual([]);
  });

  it("the scan finds what client components say", () => {
    expect(client.size).toBeGreaterThan(10);
    for (const { literal } of CLIENT_LITERALS) expect(holding(client, literal), literal).not.toEqual([]);
  });

  it("holds no service code", () => {
    const found = SERVICE_LITERALS.flatMap(({ file, literal }) =>
      holding(client, literal).map((chunk) => `${chunk} holds "${literal}" (${file})`),
    );
    expect(found).toEqual([]);
  });
});
