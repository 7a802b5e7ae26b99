// `npm run backup [-- --out <file>] [--url http://127.0.0.1:3000]`: a backup of the running server
// (docs/operations.md#backups). The server takes the snapshot (GET /api/ops/backup: the embedded
// database lives inside it); this saves the archive it streams, mode 0600, by default as
// backups/x3d-<UTC time>.tar.gz, then reads it through and says what it holds. The token is
// X3D_OPS_TOKEN, or DATA_DIR/ops-token (DATA_DIR as the server has it, default ./data).
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describeArchive, inspectArchive } from "./backup/archive.mjs";
import { opsTokenOf } from "./backup/data-dir.mjs";

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const value = args[i + 1];
  if (!value || value.startsWith("--")) fail(`${name} needs a value`);
  return value;
};

function fail(message) {
  console.error(`backup: ${message}`);
  process.exit(1);
}

const base = (option("--url") ?? `http://127.0.0.1:${process.env.PORT || 3000}`).replace(/\/+$/, "");
const stamp = new Date()
  .toISOString()
  .replace(/[-:]/g, "")
  .replace(/\.\d+Z$/, "Z");
const out = path.resolve(option("--out") ?? path.join("backups", `x3d-${stamp}.tar.gz`));

let token;
try {
  token = opsTokenOf(process.env);
} catch (error) {
  fail(error.message);
}

let res;
try {
  res = await fetch(`${base}/api/ops/backup`, { headers: { Authorization: `Bearer ${token}` } });
} catch (error) {
  fail(
    `no server answers at ${base} (${error.cause?.code ?? error.message}): start the server: the backup is taken by the running server (--url to name another address)`,
  );
}
if (res.status === 401) fail(`the server at ${base} refused the ops token (401): use the server's DATA_DIR, or its X3D_OPS_TOKEN`);
if (res.status === 404)
  fail(`${base} has no backup route (404): is it a web server of this release? A worker (X3D_ROLE=worker) does not take backups`);
if (!res.ok || !res.body) {
  const text = await res.text().catch(() => "");
  fail(`the server at ${base} answered ${res.status}: ${text.slice(0, 300)}`);
}

fs.mkdirSync(path.dirname(out), { recursive: true, mode: 0o700 });
const partial = `${out}.partial`;
try {
  await pipeline(Readable.fromWeb(res.body), fs.createWriteStream(partial, { mode: 0o600 }));
  const held = await inspectArchive(partial);
  fs.renameSync(partial, out);
  console.log(`backup: ${out} (${fs.statSync(out).size} bytes)\n${describeArchive(held)}`);
} catch (error) {
  fs.rmSync(partial, { force: true });
  fail(`the archive from ${base} is not whole: ${error.message}`);
}
