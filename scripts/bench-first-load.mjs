// `npm run bench:first-load -- --base http://127.0.0.1:PORT`: the JavaScript a signed-in artist's
// browser downloads to open the home page, the image workspace and a finished task's page, cold
// (a fresh browser context per run, so nothing is cached). Bytes are as transferred (compressed
// body and headers: CDP's loadingFinished encodedDataLength on the page's session; for a worker's
// requests, which that session does not see end, Playwright's request.sizes()), summed over the
// script responses: (first load) those the document itself asks for (its script tags and
// preloads: initiator "parser"), which is what the page needs before it works, whatever the
// timing; (a) those ended before the page's load event (which also catches a chunk imported
// during hydration when it happens to come before load, so it varies between runs); and (b) all
// of them until the
// network has been idle for 1.5 s (the task page's viewer and its workers load lazily; the live
// updates' event stream, open for the page's life, does not count as activity).
// Medians of --runs runs (default 5); kB = 1024 bytes. The set-up (account, a finished task) is
// scripts/studio-session.mjs's, as for scripts/screens.mjs.
import http from "node:http";
import https from "node:https";
import { launchBrowser, openFinishedTask, parseArgs, setUpStudio } from "./studio-session.mjs";

const USAGE = "usage: node scripts/bench-first-load.mjs --base http://127.0.0.1:PORT [--runs 5]";
const IDLE_MS = 1500;

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const kB = (n) => (n / 1024).toFixed(1);

/**
 * Bytes on the wire of a worker's script answer, from Playwright's sizes: none when it came from
 * the HTTP cache (nothing encoded); the body's Content-Length, or its length fetched again the
 * way the browser asks, when the body went to the worker's target and only the headers were seen.
 */
async function workerBytes(request, response) {
  const { responseBodySize: body, responseHeadersSize: headers } = await request.sizes();
  if (body + headers <= 0) return 0;
  if (body > 0) return body + headers;
  const length = Number(response.headers()["content-length"]);
  if (Number.isFinite(length) && length > 0) return headers + length;
  return headers + (await compressedLength(request.url()));
}

/** The body's length as sent to a client that takes gzip, deflate or br (Node's fetch would unpack it). */
function compressedLength(url) {
  const get = url.startsWith("https:") ? https.get : http.get;
  return new Promise((resolve, reject) => {
    const req = get(url, { headers: { "Accept-Encoding": "gzip, deflate, br" }, timeout: 30_000 }, (res) => {
      let length = 0;
      res.on("data", (chunk) => (length += chunk.length));
      res.on("end", () => resolve(length));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${url}: timed out`)));
    req.on("error", reject);
  });
}

/** One cold load of `pathname`: script bytes before load and until idle, and how many scripts. */
async function coldLoad(browser, base, storageState, pathname, { viewer }) {
  const context = await browser.newContext({ baseURL: base, storageState, viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    // The page's own CDP session: its requests and its load event on one monotonic clock.
    const cdp = await context.newCDPSession(page);
    const requests = new Map();
    let loadAt;
    cdp.on("Network.requestWillBeSent", (e) => {
      // The document's own scripts (its <script> tags and preloads) are fetched by the parser;
      // anything a script imports later says "script".
      if (!requests.has(e.requestId))
        requests.set(e.requestId, { url: e.request.url, type: e.type, chunks: 0, fromHtml: e.initiator?.type === "parser" });
    });
    cdp.on("Network.responseReceived", (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { type: e.type ?? r.type, mime: e.response.mimeType });
    });
    cdp.on("Network.dataReceived", (e) => {
      const r = requests.get(e.requestId);
      if (r) r.chunks += e.encodedDataLength;
    });
    cdp.on("Network.loadingFinished", (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { end: e.timestamp, bytes: e.encodedDataLength });
    });
    cdp.on("Network.loadingFailed", (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { end: e.timestamp, failed: true });
    });
    cdp.on("Page.loadEventFired", (e) => (loadAt ??= e.timestamp));
    await cdp.send("Network.enable");
    await cdp.send("Page.enable");
    // A worker's requests (its script's answer, its imports) go through the worker's target,
    // which this session does not see and Playwright follows: its events tell when the network
    // is idle and give the requests this session missed.
    const pending = new Set();
    const finished = [];
    let lastActivity = performance.now();
    // A server-sent events stream (the studio's live updates) stays open for the page's life: it
    // is no download and does not keep the network busy.
    const longLived = (request) => request.resourceType() === "eventsource";
    page.on("request", (request) => {
      if (longLived(request)) return;
      pending.add(request);
      lastActivity = performance.now();
    });
    const settled = (request, ok) => {
      if (longLived(request)) return;
      pending.delete(request);
      lastActivity = performance.now();
      if (ok) finished.push(request);
    };
    page.on("requestfinished", (request) => settled(request, true));
    page.on("requestfailed", (request) => settled(request, false));

    const response = await page.goto(pathname, { waitUntil: "load", timeout: 60_000 });
    if (response?.status() !== 200) throw new Error(`${pathname}: HTTP ${response?.status()}`);
    if (viewer) await page.locator('[data-testid="model-viewer"][data-state="ready"]').first().waitFor({ timeout: 120_000 });
    const deadline = performance.now() + 60_000;
    while (performance.now() < deadline && (pending.size || performance.now() - lastActivity < IDLE_MS)) await page.waitForTimeout(250);
    if (pending.size) throw new Error(`${pathname}: the network was never idle (${[...pending].map((r) => r.url()).join(", ")})`);
    if (loadAt === undefined) throw new Error(`${pathname}: no load event`);

    const isScript = (type, mime) => type === "Script" || type === "script" || /javascript/.test(mime ?? "");
    const scripts = [];
    const seen = new Map();
    for (const r of requests.values()) {
      if (!/^https?:/.test(r.url) || r.failed || r.end === undefined || !isScript(r.type, r.mime)) continue;
      // encodedDataLength is the wire size (headers too); the chunks' sum where it reads short.
      scripts.push({ bytes: Math.max(r.bytes || 0, r.chunks), beforeLoad: r.end <= loadAt, fromHtml: r.fromHtml });
      seen.set(r.url, (seen.get(r.url) ?? 0) + 1);
    }
    for (const request of finished) {
      const url = request.url();
      const response = await request.response();
      if (!/^https?:/.test(url) || !response || !isScript(request.resourceType(), response.headers()["content-type"])) continue;
      if (seen.get(url)) {
        seen.set(url, seen.get(url) - 1);
        continue;
      }
      // Missed by the page's session, so a worker's: counted after load (a worker is started by
      // a script that has run, and the load event waits for no worker).
      scripts.push({ bytes: await workerBytes(request, response), beforeLoad: false, worker: true });
    }
    // Answers from the HTTP cache (a worker importing what the page had) moved no bytes: not counted as files.
    const beforeLoad = scripts.filter((r) => r.beforeLoad && r.bytes > 0);
    const fromHtml = scripts.filter((r) => r.fromHtml && r.bytes > 0);
    return {
      fromHtml: fromHtml.reduce((a, r) => a + r.bytes, 0),
      filesFromHtml: fromHtml.length,
      beforeLoad: beforeLoad.reduce((a, r) => a + r.bytes, 0),
      all: scripts.reduce((a, r) => a + r.bytes, 0),
      filesBeforeLoad: beforeLoad.length,
      files: scripts.filter((r) => r.bytes > 0).length,
      workers: scripts.filter((r) => r.worker && r.bytes > 0).length,
    };
  } finally {
    await context.close();
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2), { usage: USAGE });
  const runs = Number(args.runs ?? 5);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs takes a whole number ≥ 1\n${USAGE}`);
  const log = (m) => console.error(`[first-load] ${m}`);
  const browser = await launchBrowser();
  try {
    const studio = await setUpStudio(browser, args.base, { tasks: 1, share: false, admin: false, log });
    const [id] = studio.taskIds;
    // The task page is measured once its result is in the studio's display copy, as an artist finds it later.
    const warm = await browser.newContext({ baseURL: args.base, storageState: studio.artistState });
    await openFinishedTask(await warm.newPage(), id);
    await warm.close();
    const targets = [
      { name: "home", path: "/" },
      { name: "workspace", path: "/new/image" },
      { name: "task", path: `/tasks/${encodeURIComponent(id)}`, viewer: true },
    ];
    const rows = [];
    for (const t of targets) {
      const results = [];
      for (let i = 0; i < runs; i++) {
        results.push(await coldLoad(browser, args.base, studio.artistState, t.path, t));
        log(
          `${t.name} run ${i + 1}: ${kB(results.at(-1).fromHtml)} kB in the HTML, ${kB(results.at(-1).beforeLoad)} kB before load, ${kB(results.at(-1).all)} kB until idle (${results.at(-1).files} scripts, ${results.at(-1).workers} for workers)`,
        );
      }
      rows.push({
        page: t.name,
        path: t.path.replace(/\/tasks\/[^/]+/, "/tasks/<id>"),
        fromHtml: median(results.map((r) => r.fromHtml)),
        filesFromHtml: median(results.map((r) => r.filesFromHtml)),
        beforeLoad: median(results.map((r) => r.beforeLoad)),
        all: median(results.map((r) => r.all)),
        filesBeforeLoad: median(results.map((r) => r.filesBeforeLoad)),
        files: median(results.map((r) => r.files)),
      });
    }
    console.log(
      `first-load JavaScript, ${args.base}, medians of ${runs} cold runs (kB = 1024 bytes, as transferred: compressed body + headers)`,
    );
    const head = ["page", "path", "first-load JS (in the HTML)", "JS before load", "JS until idle", "scripts (HTML / load / idle)"];
    const body = rows.map((r) => [
      r.page,
      r.path,
      `${kB(r.fromHtml)} kB`,
      `${kB(r.beforeLoad)} kB`,
      `${kB(r.all)} kB`,
      `${r.filesFromHtml} / ${r.filesBeforeLoad} / ${r.files}`,
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
    const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
    console.log(line(head));
    console.log(widths.map((w) => "-".repeat(w)).join("  "));
    for (const row of body) console.log(line(row));
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
