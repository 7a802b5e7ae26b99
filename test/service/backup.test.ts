// Backups that restore (docs/operations.md#backups): a server with studio tasks of every kind, a
// share link, an admin's grant and spent credits, and service tasks made through the Open API, is
// backed up with `npm run backup` while an image-to-3D task is still running; the archive is
// restored with `npm run restore` onto a fresh server (new DATA_DIR, new database; in the S3 run,
// the same bucket), where every task, file, share link and balance is found as it was, the account
// signs in with its password, its session and the generated client pair still work, and the task
// that was running finishes. A second restore into the restored server is refused, changing nothing.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api, fixture, type Envelope } from "../harness/api";
import { queryDb } from "../harness/db";
import { freePort, startServer, usingPostgres, usingS3, type TestServer } from "../harness/server";
import { createImageTask, createTask, formAction, shareTask, signIn, signUp, uploadImage } from "../harness/studio";
import { runScript, type ScriptRun } from "../harness/run-script";
import { tempDir } from "../harness/temp-dir";
import { until } from "../harness/until";

const cheap = { model: "x3dv1.5", resolution: "512", request_type: "1", format: "2", face: "100000" };
const ADMIN_EMAIL = "operator@example.com";
const EMAIL = "keeper@example.com";
const PASSWORD = "correct horse battery staple 9";
const FILES = ["result", "cover", "display", "preview", "inputs/0"];
/** No configured client pair: the server generates one into DATA_DIR, which the backup must carry. */
const GENERATED_PAIR = { X3D_CLIENT_ID: "", X3D_CLIENT_SECRET: "" };

const work = tempDir("backup-service");
const archive = path.join(work, "backups", "x3d.tar.gz");
let original: TestServer;
let fresh: TestServer;
let cookie: string;
let adminCookie: string;
let pair: { clientId: string; clientSecret: string };
const studioTasks: Record<string, string> = {};
let inFlight: string;
let shareLink: string;
const serviceTasks: string[] = [];
/** What the original server answered just before the backup. */
const before = {
  views: {} as Record<string, unknown>,
  files: {} as Record<string, Record<string, string>>,
  share: {} as Record<string, string>,
  balance: undefined as unknown,
  adminBalance: undefined as unknown,
  serviceBalance: 0,
  serviceAnswers: {} as Record<string, { code: number; state: string | null; result: string }>,
};
let backupRun: ScriptRun;
let restoreRun: ScriptRun;
let refusedRun: ScriptRun;
let listingBefore: string[];
let listingAfter: string[];
let tablesBefore: unknown;
let tablesAfter: unknown;

const digest = (bytes: ArrayBuffer) => crypto.createHash("sha256").update(new Uint8Array(bytes)).digest("hex");

/** A studio task as its page reads it, less what names this server (its addresses). */
async function view(base: string, session: string, id: string) {
  const res = await fetch(`${base}/api/tasks/${id}`, { headers: { cookie: session } });
  if (res.status !== 200) return { status: res.status };
  const t = (await res.json()) as Record<string, unknown> & {
    result: { stored: boolean; format: string | null };
    cover: { stored: boolean };
    display: { pending: boolean; url: string | null; previewUrl: string | null };
  };
  return {
    id: t.id,
    kind: t.kind,
    state: t.state,
    settled: t.settled,
    stateTimes: t.stateTimes,
    createdAt: t.createdAt,
    options: t.options,
    cost: t.cost,
    errorCode: t.errorCode,
    refunded: t.refunded,
    result: { stored: t.result.stored, format: t.result.format },
    cover: { stored: t.cover.stored },
    display: { pending: t.display.pending, copy: !!t.display.url, preview: !!t.display.previewUrl },
  };
}

/** Each of a task's files: its status and the sha256 of its bytes. */
async function files(base: string, session: string, prefix: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of FILES) {
    const res = await fetch(`${base}${prefix}/${name}`, { headers: { cookie: session } });
    out[name] = `${res.status} ${digest(await res.arrayBuffer())}`;
  }
  return out;
}

async function settled(base: string, session: string, id: string, timeoutMs = 150_000): Promise<void> {
  await until(
    async () => {
      const v = (await view(base, session, id)) as { settled?: boolean; state?: string };
      if (v.state === "failed") throw new Error(`task ${id} failed: ${JSON.stringify(v)}`);
      return v.settled === true && v.state === "success";
    },
    `studio task ${id} to succeed and settle`,
    timeoutMs,
  );
}

/** The embedded service's client, with the generated pair. */
async function serviceClient(base: string): Promise<Api> {
  const res = await fetch(`${base}/open-api/v1/auth/token`, {
    method: "POST",
    headers: { Authorization: `Basic ${Buffer.from(`${pair.clientId}:${pair.clientSecret}`).toString("base64")}` },
  });
  const body = (await res.json()) as Envelope<{ accessToken: string }>;
  if (body.code !== 200) throw new Error(`token: ${JSON.stringify(body)}`);
  return new Api(base).withToken(body.data.accessToken);
}

async function serviceAnswer(api: Api, id: string) {
  const answer = (await api.get(`query-task?task_id=${id}`)) as Envelope<Record<string, string>>;
  const result = answer.data?.url ? digest(await (await fetch(answer.data.url)).arrayBuffer()) : "none";
  // A failed task answers its failure's code, not 200.
  return { code: answer.code, state: answer.data?.state ?? null, result };
}

/** DATA_DIR's files with their sizes and times, to see that nothing changed. */
function listing(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const full = path.join(e.parentPath, e.name);
      const stat = fs.statSync(full);
      return `${path.relative(dir, full)} ${stat.size} ${stat.mtimeMs}`;
    })
    .sort();
}

const tableCounts = (server: TestServer) =>
  queryDb<{ t: string; n: number }>(
    server,
    `select 'users' as t, count(*)::int as n from users union all select 'studio_tasks', count(*)::int from studio_tasks
     union all select 'engine_tasks', count(*)::int from engine_tasks union all select 'credit_ledger', count(*)::int from credit_ledger order by 1`,
  );

beforeAll(async () => {
  original = await startServer(GENERATED_PAIR);
  pair = JSON.parse(fs.readFileSync(path.join(original.dataDir, "x3d-credentials.json"), "utf8")) as typeof pair;

  // The first account is the admin; it grants the artist an allowance of 900 credits.
  adminCookie = await signUp(original.url, ADMIN_EMAIL, PASSWORD);
  cookie = await signUp(original.url, EMAIL, PASSWORD);
  const admin = await (await fetch(`${original.url}/admin`, { headers: { cookie: adminCookie } })).text();
  const userId = new RegExp(`data-email="${EMAIL}"[\\s\\S]*?name="userId" value="([^"]+)"`).exec(admin)?.[1];
  if (!userId) throw new Error(`the admin page lists no ${EMAIL}`);
  expect(await formAction(original.url, adminCookie, "/admin", "setAllowanceAction", { userId, allowance: "900" })).toContain(
    `${EMAIL}: allowance 900`,
  );

  // Studio tasks of every kind; all but the image-to-3D task start from its result or its upload.
  const upload = await uploadImage(original.url, cookie);
  studioTasks.image = await createImageTask(original.url, cookie, upload.id, cheap);
  await settled(original.url, cookie, studioTasks.image);
  const image = studioTasks.image;
  studioTasks.texture = await createTask(original.url, cookie, "texture", {
    images: (await uploadImage(original.url, cookie)).id,
    mesh_source: "task",
    mesh_task: image,
    model: "x3dv1.5",
    resolution: "512",
    format: "2",
  });
  studioTasks.split = await createTask(original.url, cookie, "split", { mesh_source: "task", mesh_task: image });
  studioTasks.depth = await createTask(original.url, cookie, "depth", { image: (await uploadImage(original.url, cookie)).id, format: "3" });
  studioTasks.segmentation = await createTask(original.url, cookie, "segmentation", { mesh_source: "task", mesh_task: image });
  await Promise.all(Object.values(studioTasks).map((id) => settled(original.url, cookie, id)));
  shareLink = await shareTask(original.url, cookie, image);

  // Service tasks through the Open API with the generated pair: one succeeds, one fails (refunded).
  const api = await serviceClient(original.url);
  // A PNG signature over noise: accepted, then failed by generation.
  const noise = new Uint8Array(4000).map((_, i) => (i * 7919) % 251);
  noise.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (const images of [[fixture("chair.png"), "chair.png"] as [Blob, string], [new Blob([noise]), "broken.png"] as [Blob, string]]) {
    const created = await api.post("submit-task", { images: [images], ...cheap });
    if (created.code !== 200) throw new Error(`submit-task: ${JSON.stringify(created)}`);
    serviceTasks.push(created.data.task_id as string);
  }
  for (const id of serviceTasks) await api.waitFor("query-task", id, "Bearer", 120_000);

  // A task still running when the backup is taken: the server now makes every task last a minute.
  original.env.X3D_ENGINE_MIN_TASK_SECONDS = "60";
  await original.stop();
  await original.restart();
  inFlight = await createImageTask(original.url, cookie, (await uploadImage(original.url, cookie)).id, cheap);
  await until(
    async () => ((await view(original.url, cookie, inFlight)) as { state?: string }).state === "processing",
    "the task to run",
    60_000,
  );

  for (const [kind, id] of Object.entries(studioTasks)) {
    before.views[kind] = await view(original.url, cookie, id);
    before.files[kind] = await files(original.url, cookie, `/api/files/${id}`);
  }
  const shareToken = shareLink.split("/").pop();
  before.share = await files(original.url, "", `/api/share/${shareToken}/files`);
  before.balance = await (await fetch(`${original.url}/api/balance`, { headers: { cookie } })).json();
  before.adminBalance = await (await fetch(`${original.url}/api/balance`, { headers: { cookie: adminCookie } })).json();
  const again = await serviceClient(original.url);
  before.serviceBalance = await again.balance();
  for (const id of serviceTasks) before.serviceAnswers[id] = await serviceAnswer(again, id);

  backupRun = await runScript("backup.mjs", ["--out", archive, "--url", original.url], original.env);
  await original.stop();

  fresh = await startServer(
    { ...GENERATED_PAIR, X3D_ENGINE_LEASE_SECONDS: "2", ...(usingS3() ? { X3D_STORAGE: original.env.X3D_STORAGE as string } : {}) },
    { stopped: true },
  );
  restoreRun = await runScript("restore.mjs", [archive], fresh.env);
  listingBefore = listing(fresh.dataDir);
  if (usingPostgres()) tablesBefore = await tableCounts(fresh);
  refusedRun = await runScript("restore.mjs", [archive], fresh.env);
  listingAfter = listing(fresh.dataDir);
  if (usingPostgres()) tablesAfter = await tableCounts(fresh);
  await fresh.restart();
}, 900_000);

afterAll(async () => {
  await fresh?.dispose();
  await original?.dispose();
});

describe("a backup of a running server, restored onto a fresh one", () => {
  it("is taken by npm run backup into a file only its owner reads, which says what it holds", () => {
    expect(backupRun.stderr).toBe("");
    expect(backupRun.code).toBe(0);
    expect(backupRun.stdout).toMatch(/database: \d+ tables, \d+ rows \(.*studio_tasks 6.*\)/);
    expect(backupRun.stdout).toMatch(
      usingS3() ? /files: \d+ file keys \(\d+ bytes\) kept in s3:\/\// : /files: [1-9]\d* files \([1-9]\d* bytes\)/,
    );
    expect(backupRun.stdout).toMatch(/secrets: auth-secret, x3d-credentials.json, ops-token/);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
  });

  it("is put into the empty DATA_DIR and database by npm run restore", () => {
    expect(restoreRun.stderr).toBe("");
    expect(restoreRun.code).toBe(0);
    expect(restoreRun.stdout).toMatch(/is in /);
  });

  it("gives back every studio task of every kind, with its state and the same files", async () => {
    const session = await signIn(fresh.url, EMAIL, PASSWORD);
    expect(session).toBeDefined();
    for (const [kind, id] of Object.entries(studioTasks)) {
      expect(await view(fresh.url, session!, id), kind).toEqual(before.views[kind]);
      expect(await files(fresh.url, session!, `/api/files/${id}`), kind).toEqual(before.files[kind]);
    }
    expect(Object.values(before.files).every((f) => f.result?.startsWith("200 "))).toBe(true);
  });

  it("gives back the share link, its page and its files", async () => {
    const page = await fetch(`${fresh.url}${shareLink}`);
    expect(page.status).toBe(200);
    await page.arrayBuffer();
    expect(await files(fresh.url, "", `/api/share/${shareLink.split("/").pop()}/files`)).toEqual(before.share);
    expect(before.share.result).toMatch(/^200 /);
  });

  it("gives back the account's credits (the admin's grant, less what it spent) and the service's balance", async () => {
    const balance = await (await fetch(`${fresh.url}/api/balance`, { headers: { cookie } })).json();
    expect(balance).toEqual(before.balance);
    expect(balance).toMatchObject({ role: "artist", credits: { allowance: 900, spent: expect.any(Number) } });
    expect((balance as { credits: { spent: number } }).credits.spent).toBeGreaterThan(0);
    // The admin sees the service account's balance too.
    const admin = await (await fetch(`${fresh.url}/api/balance`, { headers: { cookie: adminCookie } })).json();
    expect(admin).toEqual(before.adminBalance);
    expect(admin).toMatchObject({ role: "admin", service: expect.any(Number) });
  });

  it("keeps the account's password, its session, and the generated client pair with its tasks and balance", async () => {
    expect(await signIn(fresh.url, EMAIL, PASSWORD)).toBeDefined();
    expect(await signIn(fresh.url, EMAIL, "not the password at all")).toBeUndefined();
    // The session cookie made on the original server: the session row and the signing key came back.
    expect((await fetch(`${fresh.url}/api/balance`, { headers: { cookie } })).status).toBe(200);
    const api = await serviceClient(fresh.url);
    expect(await api.balance()).toBe(before.serviceBalance);
    for (const id of serviceTasks) expect(await serviceAnswer(api, id)).toEqual(before.serviceAnswers[id]);
    const [succeeded, failed] = serviceTasks.map((id) => before.serviceAnswers[id]!);
    expect(succeeded).toMatchObject({ code: 200, state: "success" });
    expect(succeeded!.result).not.toBe("none");
    expect(failed!.code).not.toBe(200);
  });

  it("runs the task that was running when the backup was taken, and the studio settles it with its result", async () => {
    await settled(fresh.url, cookie, inFlight, 180_000);
    // It ran again on the restored server: the engine put it back in the queue (at start on PGlite, after the lease on PostgreSQL).
    expect(fresh.output()).toMatch(/\[x3d engine\] resumed 1 (unfinished task|task)\(s\)/);
    const result = await fetch(`${fresh.url}/api/files/${inFlight}/result`, { headers: { cookie } });
    expect(result.status).toBe(200);
    expect(new TextDecoder().decode((await result.arrayBuffer()).slice(0, 4))).toBe("glTF");
    // Charged once: the balance the backup recorded, nothing more, nothing refunded.
    expect(await (await fetch(`${fresh.url}/api/balance`, { headers: { cookie } })).json()).toEqual(before.balance);
  }, 200_000);

  it("refuses a second restore into the restored DATA_DIR and database, changing nothing", () => {
    expect(refusedRun.code).toBe(1);
    expect(refusedRun.stdout).toBe("");
    if (usingS3()) expect(refusedRun.stderr).toMatch(/already holds auth-secret/);
    else expect(refusedRun.stderr).toMatch(/already holds stored files/);
    if (usingPostgres()) {
      expect(refusedRun.stderr).toMatch(/the database of DATABASE_URL is not empty|already holds/);
      expect(tablesAfter).toEqual(tablesBefore);
    } else expect(refusedRun.stderr).toMatch(/already holds an embedded database/);
    expect(listingAfter).toEqual(listingBefore);
    expect(listingBefore.length).toBeGreaterThan(0);
  });

  it("answers the backup route only with the ops token, and the script says why it cannot back up", async () => {
    const res = await fetch(`${fresh.url}/api/ops/backup`, { headers: { Authorization: "Bearer wrong-token-0123456789" } });
    expect(res.status).toBe(401);
    await res.arrayBuffer();
    const refused = await runScript("backup.mjs", ["--out", path.join(work, "no.tar.gz"), "--url", fresh.url], {
      ...fresh.env,
      X3D_OPS_TOKEN: "wrong-token-0123456789",
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the ops token \(401\)/);
    const nobody = await runScript(
      "backup.mjs",
      ["--out", path.join(work, "no.tar.gz"), "--url", `http://127.0.0.1:${await freePort()}`],
      fresh.env,
    );
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toMatch(/start the server: the backup is taken by the running server/);
    expect(fs.existsSync(path.join(work, "no.tar.gz"))).toBe(false);
    expect(fs.existsSync(path.join(work, "no.tar.gz.partial"))).toBe(false);
  });
});
