// Part 1 of bench:studio: how fast the task page's viewer shows the result, against a bare
// three.js page (GLTFLoader, one light, one render) that loads the same GLB from a tiny
// server of the bench's own. Cold runs, interleaved, on loopback and throttled. Each loopback
// task run also waits until the page's network is idle and sums the compressed JavaScript it
// fetched in all (its workers' too), by kind, and names any format loader or viewer tool among
// what the first picture waited for (the strings of e2e/viewer-chunks.json).
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { HOST, MB, ROOT, Server, figure, fmt, kB, log, mB, median, missing, ms, onCleanup, tempDir, waitQuiet } from "./common.mjs";
import { markersIn, recordScripts } from "./page-scripts.mjs";
import { StudioHttp, createImageTask, signUp, signedInPage } from "./studio.mjs";

const PART = "1 viewer";
export const GOALS = {
  firstPictureRatio: 0.35,
  jsInAll: 300 * 1024,
  fullDetailRatioLoopback: 0.6,
  fullDetailRatioThrottled: 0.4,
  bytesUntilReady: 12 * MB,
  firstLoadJsGzip: 160 * 1024,
};
const THROTTLE = { name: "50 Mbit/s, 20 ms", latency: 20, downloadThroughput: 50e6 / 8, uploadThroughput: 50e6 / 8 };
const RUN_TIMEOUT_MS = 240_000;
const THREE_DIR = path.join(ROOT, "node_modules/three");
const MARKERS = JSON.parse(fs.readFileSync(path.join(ROOT, "e2e/viewer-chunks.json"), "utf8"));

// ---------------------------------------------------------------- the bare page

const bareHtml = (width, height) => `<!doctype html>
<html><head><meta charset="utf-8"><title>bare three.js</title>
<style>html,body{margin:0;background:#171717}canvas{display:block}</style>
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
</head><body>
<script type="module">
import * as THREE from "three";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
try {
  // preserveDrawingBuffer as the studio's viewer has it (and so the bench can read the frame).
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
  renderer.setSize(${width}, ${height});
  document.body.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 1.5));
  const sun = new THREE.DirectionalLight(0xffffff, 2);
  sun.position.set(3, 5, 4);
  scene.add(sun);
  const gltf = await new GLTFLoader().loadAsync("/model.glb");
  scene.add(gltf.scene);
  const box = new THREE.Box3().setFromObject(gltf.scene);
  const size = box.getSize(new THREE.Vector3()).length() || 1;
  const center = box.getCenter(new THREE.Vector3());
  const camera = new THREE.PerspectiveCamera(45, ${width} / ${height}, size / 100, size * 100);
  camera.position.copy(center).add(new THREE.Vector3(0.6, 0.4, 1).normalize().multiplyScalar(size * 1.2));
  camera.lookAt(center);
  renderer.render(scene, camera);
  requestAnimationFrame(() => (document.body.dataset.state = "ready"));
} catch (e) {
  document.body.dataset.state = "error";
  document.body.dataset.reason = String(e && e.message || e);
}
</script></body></html>`;

/** Serves the bare page, three's ESM build and examples, and the saved GLB. */
export async function startBareServer(glbPath) {
  const types = { ".js": "text/javascript; charset=utf-8", ".html": "text/html; charset=utf-8" };
  const size = { width: 800, height: 480 };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const send = (status, type, body) => {
      res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" });
      res.end(body);
    };
    if (url.pathname === "/") return send(200, types[".html"], bareHtml(size.width, size.height));
    if (url.pathname === "/model.glb") {
      const stat = fs.statSync(glbPath);
      res.writeHead(200, { "Content-Type": "model/gltf-binary", "Content-Length": stat.size, "Cache-Control": "no-store" });
      return fs.createReadStream(glbPath).pipe(res);
    }
    const m = /^\/three\/((?:build|examples\/jsm)\/[\w./-]+\.js)$/.exec(url.pathname);
    const file = m && !m[1].includes("..") ? path.join(THREE_DIR, m[1]) : undefined;
    if (file && fs.existsSync(file)) return send(200, types[".js"], fs.readFileSync(file));
    send(404, "text/plain", "not found");
  });
  await new Promise((r) => server.listen(0, HOST, r));
  onCleanup(() => server.close());
  server.keepAliveTimeout = 5000;
  return { server, base: `http://${HOST}:${server.address().port}`, size };
}

// ---------------------------------------------------------------- one cold run

/** Records performance.now() when the viewer's data-state (task page) or body's (bare page) takes each value. */
function installStateObserver() {
  const marks = (window.__benchMarks = {});
  // "drawn": the first frame at or after "ready" with a picture on the canvas: more than 2% of
  // a 64×40 copy differs from its corner (backdrop) colour, as e2e's drawnShare checks. The
  // bare page calls render() before "ready", but SwiftShader rasterises later; the task page
  // says "ready" before its frame. Checked at "ready", then once a frame; "undrawn" after 15 s.
  // Reading the canvas waits for the GPU (SwiftShader) to finish the frame: the time is taken after.
  let small;
  const drawn = () => {
    const c = document.querySelector('[data-testid="viewer-canvas"]') ?? document.querySelector("canvas");
    if (!c || !c.width) return false;
    small ??= Object.assign(document.createElement("canvas"), { width: 64, height: 40 }).getContext("2d", { willReadFrequently: true });
    small.clearRect(0, 0, 64, 40);
    small.drawImage(c, 0, 0, 64, 40);
    const d = small.getImageData(0, 0, 64, 40).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4)
      if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) + Math.abs(d[i + 3] - d[3]) > 24) n++;
    return n > 0.02 * 64 * 40;
  };
  const watchDrawn = () => {
    if (drawn()) marks.drawn = performance.now();
    else if (performance.now() - marks.ready < 15_000) requestAnimationFrame(watchDrawn);
    else marks.undrawn = performance.now();
  };
  const seen = (value, t) => {
    if (!value || value in marks) return;
    marks[value] = t;
    if (value === "ready") {
      if (drawn()) marks.drawn = performance.now();
      else requestAnimationFrame(watchDrawn);
    }
  };
  const viewer = () => document.querySelector('[data-testid="model-viewer"]');
  new MutationObserver((records) => {
    const t = performance.now();
    // A batch may hold several changes: each record's old value, then the current one.
    for (const r of records) {
      const ours = r.target === document.body || r.target.getAttribute?.("data-testid") === "model-viewer";
      if (ours && r.type === "attributes" && r.attributeName === "data-state" && r.oldValue) seen(r.oldValue, t);
    }
    seen(viewer()?.getAttribute("data-state"), t);
    if (document.body?.dataset.state) seen(document.body.dataset.state, t);
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"], attributeOldValue: true });
}

/** A fresh context (nothing cached), CDP network events, navigation, wait for ready or error. */
export async function coldRun(browser, { url, storageState, throttle, viewport, allJs = false, trace, profile }) {
  const context = await browser.newContext({ storageState, viewport });
  try {
    const page = await context.newPage();
    if (trace) await browser.startTracing(page, { path: trace, screenshots: false });
    await page.addInitScript(installStateObserver);
    const scripts = allJs ? recordScripts(page) : undefined;
    const cdp = await context.newCDPSession(page);
    const requests = new Map();
    cdp.on("Network.requestWillBeSent", (e) => {
      if (!requests.has(e.requestId))
        requests.set(e.requestId, {
          url: e.request.url,
          type: e.type,
          start: e.timestamp,
          wallTime: e.wallTime,
          bytes: 0,
          partial: 0,
          // The document's own <script> tags and preloads are fetched by the parser.
          fromHtml: e.initiator?.type === "parser",
        });
    });
    cdp.on("Network.responseReceived", (e) => {
      const r = requests.get(e.requestId);
      if (!r) return;
      const h = Object.fromEntries(Object.entries(e.response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      // Without a content-encoding, Content-Length is the body's size on the wire.
      const declared = !h["content-encoding"] && h["content-length"] ? Number(h["content-length"]) : 0;
      Object.assign(r, {
        status: e.response.status,
        mime: e.response.mimeType,
        type: e.type ?? r.type,
        declared,
        encoding: h["content-encoding"],
      });
    });
    cdp.on("Network.dataReceived", (e) => {
      const r = requests.get(e.requestId);
      if (r) (r.chunks ??= []).push([e.timestamp, e.encodedDataLength, e.dataLength]);
    });
    cdp.on("Network.loadingFinished", (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { end: e.timestamp, bytes: e.encodedDataLength });
    });
    cdp.on("Network.loadingFailed", (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { failed: e.errorText, end: e.timestamp });
    });
    await cdp.send("Network.enable");
    if (profile) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    if (throttle)
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: throttle.latency,
        downloadThroughput: throttle.downloadThroughput,
        uploadThroughput: throttle.uploadThroughput,
      });
    const response = await page.goto(url, { waitUntil: "commit", timeout: 60_000 });
    if (response && response.status() !== 200) throw new Error(`${url}: HTTP ${response.status()}`);
    await page.waitForFunction(
      () => {
        const m = window.__benchMarks;
        return m && ("error" in m || "drawn" in m || "undrawn" in m);
      },
      null,
      { timeout: RUN_TIMEOUT_MS, polling: 200 },
    );
    const info = await page.evaluate(() => {
      const canvas = document.querySelector('[data-testid="viewer-canvas"]') ?? document.querySelector("canvas");
      const rect = canvas?.getBoundingClientRect();
      return {
        marks: window.__benchMarks,
        // The viewer's own phases (components/viewer: x3d:load, fetched, parsed, drawn per URL).
        phases: performance
          .getEntriesByType("mark")
          .filter((m) => m.name.startsWith("x3d:"))
          .map((m) => ({ phase: m.name.slice(4), url: String(m.detail ?? ""), t: m.startTime })),
        timeOrigin: performance.timeOrigin,
        canvas: rect ? { width: Math.round(rect.width), height: Math.round(rect.height) } : undefined,
        reason: document.querySelector('[data-testid="model-viewer"] [role=alert]')?.textContent ?? document.body.dataset.reason,
      };
    });
    if (!("ready" in info.marks)) throw new Error(`the page ended in state error${info.reason ? `: ${info.reason}` : ""}`);
    // CDP timestamps are monotonic seconds; anchor them on the first request's wall time.
    const first = [...requests.values()][0];
    const rel = (ts) => (first ? first.wallTime * 1000 - info.timeOrigin + (ts - first.start) * 1000 : NaN);
    const ready = info.marks.ready;
    const list = [...requests.values()]
      .filter((r) => /^https?:/.test(r.url))
      .map((r) => {
        const startMs = rel(r.start);
        const endMs = r.end !== undefined ? rel(r.end) : Infinity;
        const partial = endMs > ready ? (r.chunks ?? []).filter(([t]) => rel(t) <= ready).reduce((a, [, n]) => a + n, 0) : 0;
        // loadingFinished.encodedDataLength is sometimes 0 (or short) for a body read as a stream,
        // and GLTFLoader's fetch ends in loadingFailed (net::ERR_ABORTED) after reading it all: the
        // larger of it, the dataReceived chunks' sum and an unencoded Content-Length when finished.
        const chunked = (r.chunks ?? []).reduce((a, [, n]) => a + n, 0);
        const bytes = r.end === undefined ? 0 : r.failed ? chunked : Math.max(r.bytes || 0, chunked, r.declared || 0);
        return {
          url: r.url,
          type: r.type,
          mime: r.mime,
          status: r.status,
          bytes,
          startMs,
          endMs,
          partial,
          failed: r.failed,
          encoding: r.encoding,
        };
      });
    const done = list.filter((r) => r.endMs <= ready);
    if (trace) await browser.stopTracing();
    if (profile) fs.writeFileSync(profile, JSON.stringify((await cdp.send("Profiler.stop")).profile));
    const js = scripts ? await jsInAll(page, scripts, requests) : undefined;
    return {
      js,
      firstPicture: info.marks.preview ?? ready,
      hadPreview: "preview" in info.marks,
      ready,
      drawn: info.marks.drawn ?? NaN,
      marks: info.marks,
      phases: info.phases,
      canvas: info.canvas,
      requests: list,
      bytesUntilReady: done.reduce((a, r) => a + (r.bytes || 0), 0),
      inFlightAtReady: list.reduce((a, r) => a + r.partial, 0),
    };
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------- JS in all
/**
 * Waits until the page's network is idle, then sums its JavaScript by kind: the HTML's own
 * scripts, the rest of what was asked for before the first picture (the viewer's x3d:drawn
 * mark, the page's clock), what came after it, and the workers' scripts (not in the page's
 * timeline); and names any format loader, and any viewer tool asked for before the picture.
 */
async function jsInAll(page, recorder, requests) {
  const idle = await recorder.idle();
  const { drawn, starts } = await page.evaluate(() => ({
    drawn: performance.getEntriesByName("x3d:drawn")[0]?.startTime ?? NaN,
    starts: performance.getEntriesByType("resource").map((e) => [e.name, e.startTime]),
  }));
  const startOf = new Map(starts);
  const fromHtml = new Set([...requests.values()].filter((r) => r.fromHtml).map((r) => r.url));
  const kinds = { html: 0, beforePicture: 0, afterPicture: 0, workers: 0 };
  const loaders = [];
  const earlyTools = [];
  let files = 0;
  for (const s of recorder.scripts.values()) {
    if (s.bytes > 0) files++;
    const start = startOf.get(s.url);
    const kind = fromHtml.has(s.url) ? "html" : start === undefined ? "workers" : start < drawn ? "beforePicture" : "afterPicture";
    kinds[kind] += s.bytes;
    loaders.push(...markersIn(MARKERS.loaders, s.body));
    if (kind === "html" || kind === "beforePicture") earlyTools.push(...markersIn(MARKERS.tools, s.body));
  }
  return { idle, total: Object.values(kinds).reduce((a, b) => a + b, 0), kinds, files, loaders, earlyTools };
}

// ---------------------------------------------------------------- JS sizes

const gzipCache = new Map();
async function gzipSize(url, cookie) {
  if (!gzipCache.has(url)) {
    const res = await fetch(url, { headers: cookie ? { Cookie: cookie } : {}, signal: AbortSignal.timeout(30_000) });
    if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status}`);
    const body = Buffer.from(await res.arrayBuffer());
    gzipCache.set(url, { raw: body.length, gzip: zlib.gzipSync(body).length });
  }
  return gzipCache.get(url);
}

/** The `<script src>` files in the task page's HTML, with raw and gzip sizes. */
async function firstLoadJs(studio, pathname) {
  const res = await studio.get(pathname);
  const html = await res.text();
  if (res.status !== 200) throw new Error(`GET ${pathname}: HTTP ${res.status}`);
  // noModule scripts (the legacy polyfills) are not loaded by a modern browser: left out.
  const tags = [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]).filter((t) => !/\snomodule\b/i.test(t));
  const srcs = [
    ...new Set(
      tags
        .map((t) => /\ssrc="([^"]+)"/.exec(t)?.[1])
        .filter(Boolean)
        .map((src) => src.replaceAll("&amp;", "&")),
    ),
  ];
  const files = [];
  for (const src of srcs) files.push({ url: new URL(src, studio.base).href, ...(await gzipSize(new URL(src, studio.base).href)) });
  return files;
}

// ---------------------------------------------------------------- the part

const isGlb = (r) => /model\/gltf/.test(r.mime ?? "") || /\/api\/files\/[^/]+\/result|\.glb(\?|$)/.test(r.url);
const shortUrl = (u) => {
  const url = new URL(u);
  return url.pathname.length > 70 ? `…${url.pathname.slice(-69)}` : `${url.pathname}${url.search}`;
};

export async function runViewer({ browser, runs, deadline = Infinity }) {
  const rows = [];
  const server = await new Server("viewer").start();
  try {
    log(`\n(1) viewer: server pid ${server.pid} on ${server.base}`);
    const user = await signUp(browser, server.base);
    const studio = new StudioHttp(server.base, user.cookie);

    // The default image-to-3D task through /new/image, watched on its page until ready once.
    const { context, page } = await signedInPage(browser, server.base, user);
    let id;
    try {
      const t0 = performance.now();
      const created = await createImageTask(page, { image: "robot.png" });
      id = created.id;
      log(
        `  created task ${id} through /new/image with the form's defaults: ${Object.entries(created.shown)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}`,
      );
      await page.locator('[data-testid="model-viewer"][data-state="ready"]').waitFor({ timeout: 300_000 });
      log(`  its page showed the model (data-state=ready) ${fmt((performance.now() - t0) / 1000, 1)} s after submitting`);
    } finally {
      await context.close();
    }
    const view = await studio.task(id);
    if (view.state !== "success" || !view.result?.downloadUrl) throw new Error(`task ${id} is ${view.state}, no result to view`);

    const dir = tempDir("x3d-bench-viewer-");
    const glbPath = path.join(dir, "result.glb");
    const glbBytes = await studio.download(view.result.downloadUrl, glbPath);
    log(`  saved the original result (${view.result.downloadUrl}): ${mB(glbBytes)} (${glbBytes} bytes)`);
    const bare = await startBareServer(glbPath);
    log(
      `  bare three.js page on ${bare.base} (GLTFLoader from node_modules/three ${JSON.parse(fs.readFileSync(path.join(THREE_DIR, "package.json"), "utf8")).version})`,
    );

    const taskUrl = `${server.base}/tasks/${encodeURIComponent(id)}`;
    const viewport = { width: 1280, height: 800 };
    const results = { loopback: { task: [], bare: [] }, throttled: { task: [], bare: [] } };
    // Run i's task page and bare page, when both succeeded: the first-picture ratio of each run.
    const pairs = { loopback: [], throttled: [] };
    const errors = [];
    let quietWarnings = 0;
    // A throttled pair takes about 30 s, a loopback pair about 12 s: runs that would not fit
    // before the deadline are skipped (at least one pair per condition is always run).
    let skipped = 0;
    for (const [cond, throttle] of [
      ["loopback", undefined],
      ["throttled", THROTTLE],
    ]) {
      for (let i = 0; i < runs; i++) {
        const left = cond === "loopback" ? 30_000 * runs + 12_000 * (runs - i) : 30_000 * (runs - i);
        if (i > 0 && performance.now() + left > deadline) {
          skipped += 2;
          continue;
        }
        const pair = {};
        for (const kind of ["task", "bare"]) {
          const url = kind === "task" ? taskUrl : `${bare.base}/`;
          try {
            const quiet = await waitQuiet({ maxMs: 3_000, idleShare: 0.8 });
            if (quiet.idleShare < 0.8) quietWarnings++;
            const r = await coldRun(browser, {
              url,
              storageState: kind === "task" ? user.storageState : undefined,
              throttle,
              viewport,
              allJs: kind === "task" && cond === "loopback",
              // BENCH_TRACE=<dir>: a Chrome trace of each loopback run (chrome://tracing, Perfetto).
              trace:
                process.env.BENCH_TRACE && cond === "loopback" ? path.join(process.env.BENCH_TRACE, `${kind}-run${i + 1}.json`) : undefined,
            });
            results[cond][kind].push(r);
            pair[kind] = r;
            // The bare canvas takes the studio viewer's size once it is known.
            if (kind === "task" && r.canvas?.width) Object.assign(bare.size, r.canvas);
            log(
              `  ${cond.padEnd(9)} run ${i + 1}/${runs} ${kind.padEnd(4)}: ` +
                (kind === "task" ? `first picture ${ms(r.firstPicture)}${r.hadPreview ? "" : " (no preview: = ready)"}, ` : "") +
                `ready ${ms(r.ready)}` +
                `, picture on canvas ${Number.isFinite(r.drawn) ? ms(r.drawn) : "none within 15 s"}` +
                `, ${mB(r.bytesUntilReady)} fetched until ready` +
                (r.js ? `; JS in all ${kB(r.js.total)}${r.js.idle ? "" : " (network never idle: so far)"}` : ""),
            );
          } catch (e) {
            errors.push(`${cond} ${kind} run ${i + 1}: ${e.message.split("\n")[0]}`);
            log(`  ${cond.padEnd(9)} run ${i + 1}/${runs} ${kind.padEnd(4)}: failed: ${e.message.split("\n")[0]}`);
          }
        }
        if (pair.task && pair.bare)
          pairs[cond].push({ run: i + 1, ratio: pair.task.firstPicture / pair.bare.drawn, task: pair.task, bare: pair.bare });
      }
    }

    // Requests of the first loopback task run: the model's and the lazily loaded JS.
    const sample = results.loopback.task[0];
    let lazyJsUrls = [];
    let firstLoad = [];
    try {
      firstLoad = await firstLoadJs(studio, `/tasks/${encodeURIComponent(id)}`);
    } catch (e) {
      errors.push(`first-load JS: ${e.message}`);
    }
    if (sample) {
      const inHtml = new Set(firstLoad.map((f) => f.url));
      const scripts = sample.requests.filter((r) => r.type === "Script" && r.endMs <= sample.ready);
      lazyJsUrls = scripts.filter((r) => !inHtml.has(r.url));
      for (const r of lazyJsUrls) Object.assign(r, await gzipSize(r.url).catch(() => ({})));
      const lines = [
        ...sample.requests.filter(isGlb).map((r) => ({ ...r, what: "model" })),
        ...lazyJsUrls.map((r) => ({ ...r, what: "JS (not in HTML)" })),
      ].sort((a, b) => a.startMs - b.startMs);
      log(`\n  requests of loopback task run 1 (times from navigation start; ready at ${ms(sample.ready)}):`);
      log(`    ${"what".padEnd(17)} ${"start".padStart(8)} ${"end".padStart(8)} ${"bytes".padStart(11)} ${"encoding".padEnd(8)}  url`);
      for (const r of lines) {
        log(
          `    ${r.what.padEnd(17)} ${ms(r.startMs).padStart(8)} ${(Number.isFinite(r.endMs) ? ms(r.endMs) : "unfinished").padStart(8)} ${String(r.bytes || r.partial).padStart(11)} ${(r.encoding ?? "-").padEnd(8)}  ` +
            `${shortUrl(r.url)}${r.status && r.status !== 200 ? ` (HTTP ${r.status})` : ""}`,
        );
      }
      const html = sample.requests.find((r) => r.type === "Document");
      if (html) log(`    (the document: ${ms(html.startMs)}–${ms(html.endMs)}, ${html.bytes} bytes)`);
      // The viewer's own marks (components/viewer): where the time between them went.
      const phases = (sample.phases ?? []).map(
        (p) => `${p.phase}${p.url ? ` ${new URL(p.url, "http://x").pathname.split("/").pop()}` : ""} ${ms(p.t)}`,
      );
      if (phases.length) log(`    viewer phases: ${phases.join(", ")}`);
    }

    // ---------------------------------------------------------------- figures
    const med = (cond, kind, key) => median(results[cond][kind].map((r) => r[key]));
    // The reference is the bare page's picture on canvas ("drawn"): its "ready" comes right after
    // render() returns, about 1.7 s before SwiftShader has rasterised the frame. The task page
    // sets data-state in the animation frame after the one that drew the model, so its marks
    // are pictures already (its "drawn" check confirms, within a frame).
    const ratio = (cond, taskKey) => med(cond, "task", taskKey) / med(cond, "bare", "drawn");
    const n = (cond) => `${results[cond].task.length}+${results[cond].bare.length} runs`;
    const noRuns = (cond) => !results[cond].task.length || !results[cond].bare.length;
    const add = (name, cond, key, goal) => {
      if (noRuns(cond)) return rows.push(missing(PART, name, goal ? `≤ ${goal}×` : undefined, `no successful ${cond} runs`));
      const r = ratio(cond, key);
      if (!Number.isFinite(r))
        return rows.push(
          missing(
            PART,
            name,
            goal ? `≤ ${goal}×` : undefined,
            `no ${cond} value (task ${ms(med(cond, "task", key))}, bare ${ms(med(cond, "bare", "drawn"))})`,
          ),
        );
      const detail = `task ${ms(med(cond, "task", key))} / bare picture ${ms(med(cond, "bare", "drawn"))} (medians, ${n(cond)})`;
      rows.push(figure(PART, name, `${fmt(r, 2)}×`, goal ? `≤ ${goal}×` : undefined, r <= goal, detail));
    };
    const previews = results.loopback.task.filter((r) => r.hadPreview).length;
    // The goal holds in every run: each run's task page against the bare page run right after it.
    const perRun = pairs.loopback;
    if (perRun.length) {
      log(`\n  first picture, task page / bare page's picture, loopback, each run (goal ≤ ${GOALS.firstPictureRatio}× in every run):`);
      for (const p of perRun)
        log(
          `    run ${p.run}: ${ms(p.task.firstPicture)} / ${ms(p.bare.drawn)} = ${fmt(p.ratio, 2)}× ${p.ratio <= GOALS.firstPictureRatio ? "PASS" : "MISS"}`,
        );
      const worst = Math.max(...perRun.map((p) => p.ratio));
      const med = median(perRun.map((p) => p.ratio));
      log(`    median ${fmt(med, 2)}×, worst ${fmt(worst, 2)}×`);
      rows.push(
        figure(
          PART,
          "first picture, task/bare, loopback, every run",
          `${fmt(worst, 2)}× worst`,
          `≤ ${GOALS.firstPictureRatio}× each`,
          worst <= GOALS.firstPictureRatio && Number.isFinite(worst),
          `median ${fmt(med, 2)}×; runs ${perRun.map((p) => `${fmt(p.ratio, 2)}×`).join(", ")} (each run's task page / the bare page run after it)` +
            (previews ? "" : "; no preview state seen: first picture = ready"),
        ),
      );
    } else
      rows.push(
        missing(PART, "first picture, task/bare, loopback, every run", `≤ ${GOALS.firstPictureRatio}× each`, "no pair of loopback runs"),
      );
    add("first picture, task/bare, loopback (medians)", "loopback", "firstPicture", GOALS.firstPictureRatio);
    add("first picture, task/bare, throttled", "throttled", "firstPicture", undefined);
    add("full detail, task/bare, loopback", "loopback", "drawn", GOALS.fullDetailRatioLoopback);
    add("full detail, task/bare, throttled", "throttled", "drawn", GOALS.fullDetailRatioThrottled);
    const bareReady = (cond) => `bare page: ready ${ms(med(cond, "bare", "ready"))}, picture ${ms(med(cond, "bare", "drawn"))}`;
    if (!noRuns("loopback"))
      rows.push(
        figure(PART, "bare page, loopback (reference)", ms(med("loopback", "bare", "drawn")), undefined, undefined, bareReady("loopback")),
      );
    if (!noRuns("throttled"))
      rows.push(
        figure(
          PART,
          "bare page, throttled (reference)",
          ms(med("throttled", "bare", "drawn")),
          undefined,
          undefined,
          bareReady("throttled"),
        ),
      );
    if (skipped)
      errors.push(
        `${skipped} of ${runs * 4} runs skipped to keep the whole bench within its time budget (--budget, or --only=viewer for all)`,
      );
    if (quietWarnings)
      errors.push(`${quietWarnings} of ${runs * 4} runs started on a busy machine (not 80% idle after waiting 3 s): expect noise`);
    const bytes = median(results.loopback.task.map((r) => r.bytesUntilReady));
    if (Number.isFinite(bytes)) {
      const inflight = median(results.loopback.task.map((r) => r.inFlightAtReady));
      rows.push(
        figure(
          PART,
          "bytes fetched until full detail (task page)",
          mB(bytes),
          `≤ ${mB(GOALS.bytesUntilReady)}`,
          bytes <= GOALS.bytesUntilReady,
          `median of loopback runs, CDP loadingFinished.encodedDataLength${inflight > 0 ? `; ${mB(inflight)} more in flight at ready` : ""}; GLB itself ${mB(glbBytes)}`,
        ),
      );
    } else
      rows.push(missing(PART, "bytes fetched until full detail (task page)", `≤ ${mB(GOALS.bytesUntilReady)}`, "no successful task run"));
    const withJs = results.loopback.task.filter((r) => r.js);
    if (withJs.length) {
      log(`\n  JavaScript a GLB task page fetched in all (compressed, workers included; goal ≤ ${kB(GOALS.jsInAll)}), each loopback run:`);
      for (const [i, r] of withJs.entries()) {
        const k = r.js.kinds;
        log(
          `    run ${i + 1}: ${kB(r.js.total)} in ${r.js.files} scripts${r.js.idle ? "" : " (the network was never idle: so far)"}: ` +
            `HTML's scripts ${kB(k.html)}, the viewer before the first picture ${kB(k.beforePicture)}, ` +
            `after it ${kB(k.afterPicture)}, workers ${kB(k.workers)}` +
            (r.js.loaders.length ? `; format loaders: ${[...new Set(r.js.loaders)].join(", ")}` : "; no format loader") +
            (r.js.earlyTools.length
              ? `; tools before the first picture: ${[...new Set(r.js.earlyTools)].join(", ")}`
              : "; no tool before the first picture"),
        );
      }
      const total = median(withJs.map((r) => r.js.total));
      const kind = (key) => kB(median(withJs.map((r) => r.js.kinds[key])));
      rows.push(
        figure(
          PART,
          "JS fetched in all, GLB task page (compressed)",
          kB(total),
          `≤ ${kB(GOALS.jsInAll)}`,
          total <= GOALS.jsInAll,
          `median of ${withJs.length} runs (${withJs.map((r) => kB(r.js.total)).join(", ")}); HTML ${kind("html")}, viewer before the first picture ${kind("beforePicture")}, after it ${kind("afterPicture")}, workers ${kind("workers")}`,
        ),
      );
    } else rows.push(missing(PART, "JS fetched in all, GLB task page (compressed)", `≤ ${kB(GOALS.jsInAll)}`, "no loopback task run"));
    if (firstLoad.length) {
      const gz = firstLoad.reduce((a, f) => a + f.gzip, 0);
      const raw = firstLoad.reduce((a, f) => a + f.raw, 0);
      rows.push(
        figure(
          PART,
          "first-load JS of the task page (gzip)",
          kB(gz),
          `≤ ${kB(GOALS.firstLoadJsGzip)}`,
          gz <= GOALS.firstLoadJsGzip,
          `${firstLoad.length} <script src> files (noModule left out), ${kB(raw)} raw`,
        ),
      );
    } else
      rows.push(
        missing(PART, "first-load JS of the task page (gzip)", `≤ ${kB(GOALS.firstLoadJsGzip)}`, "could not read the page's scripts"),
      );
    if (sample) {
      const scripts = sample.requests.filter((r) => r.type === "Script" && r.endMs <= sample.ready);
      const sizes = await Promise.all(scripts.map((r) => gzipSize(r.url).catch(() => ({ gzip: 0, raw: 0 }))));
      const gz = sizes.reduce((a, s) => a + s.gzip, 0);
      rows.push(
        figure(
          PART,
          "JS fetched until ready (gzip)",
          kB(gz),
          undefined,
          true,
          `${scripts.length} scripts (${lazyJsUrls.length} not in the HTML), ${kB(sizes.reduce((a, s) => a + s.raw, 0))} raw; loopback run 1`,
        ),
      );
    }
    return { rows, notes: errors.map((e) => `viewer: ${e}`) };
  } finally {
    await server.dispose();
  }
}
