// Part 3 of bench:studio: the server's memory while a ~198 MB GLB goes through the texture chain
// (upload through /new/texture, the studio's call to the service, generation, the result copied
// back), sampled from /proc every 200 ms.
import fs from "node:fs";
import path from "node:path";
import { MB, Server, figure, fmt, log, mB, sleep, tempDir, treeRssKb } from "./common.mjs";
import { StudioHttp, createTextureTask, signUp, signedInPage } from "./studio.mjs";

const PART = "3 memory";
export const GOALS = { peakBytes: 1.5 * 1024 * MB, afterOverIdleBytes: 300 * MB };
const SAMPLE_MS = 200;
const TARGET_BYTES = 198 * MB;
const AFTER_MS = 20_000;
const IDLE_MS = 2_000;
const CHAIN_TIMEOUT_MS = 420_000;

/**
 * Writes a GLB of one torus, finely tessellated, each triangle with its own three vertices
 * (positions only, float32, and a uint32 index buffer, as an unwelded STL converts): 48 bytes
 * a triangle, as many as fit `targetBytes`. Streamed to disk. Returns size and triangles.
 */
export function writeTorusGlb(file, targetBytes) {
  const perTriangle = 36 + 12;
  const minor = 1040;
  const major = Math.floor((targetBytes - 4096) / perTriangle / (2 * minor));
  const triangles = 2 * major * minor;
  const posBytes = triangles * 36;
  const idxBytes = triangles * 12;
  const R = 1;
  const r = 0.35;
  const json = {
    asset: { version: "2.0", generator: "bench-studio torus" },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: "torus" }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1, mode: 4 }] }],
    buffers: [{ byteLength: posBytes + idxBytes }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: posBytes, target: 34962 },
      { buffer: 0, byteOffset: posBytes, byteLength: idxBytes, target: 34963 },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: triangles * 3, type: "VEC3", min: [-(R + r), -r, -(R + r)], max: [R + r, r, R + r] },
      { bufferView: 1, componentType: 5125, count: triangles * 3, type: "SCALAR" },
    ],
  };
  let jsonText = JSON.stringify(json);
  jsonText += " ".repeat((4 - (jsonText.length % 4)) % 4);
  const total = 12 + 8 + jsonText.length + 8 + posBytes + idxBytes;
  const fd = fs.openSync(file, "w");
  try {
    const head = Buffer.alloc(12 + 8 + jsonText.length + 8);
    head.writeUInt32LE(0x46546c67, 0);
    head.writeUInt32LE(2, 4);
    head.writeUInt32LE(total, 8);
    head.writeUInt32LE(jsonText.length, 12);
    head.writeUInt32LE(0x4e4f534a, 16);
    head.write(jsonText, 20, "utf8");
    head.writeUInt32LE(posBytes + idxBytes, 20 + jsonText.length);
    head.writeUInt32LE(0x004e4942, 24 + jsonText.length);
    fs.writeSync(fd, head);
    const point = (i, j) => {
      const u = (2 * Math.PI * i) / major;
      const v = (2 * Math.PI * j) / minor;
      return [(R + r * Math.cos(v)) * Math.cos(u), r * Math.sin(v), (R + r * Math.cos(v)) * Math.sin(u)];
    };
    const ring = new Float32Array(minor * 2 * 9);
    for (let i = 0; i < major; i++) {
      let k = 0;
      for (let j = 0; j < minor; j++) {
        const a = point(i, j);
        const b = point(i + 1, j);
        const c = point(i + 1, j + 1);
        const d = point(i, j + 1);
        for (const p of [a, b, c, a, c, d]) {
          ring[k++] = p[0];
          ring[k++] = p[1];
          ring[k++] = p[2];
        }
      }
      fs.writeSync(fd, new Uint8Array(ring.buffer));
    }
    const chunk = new Uint32Array(1 << 20);
    for (let start = 0; start < triangles * 3; start += chunk.length) {
      const n = Math.min(chunk.length, triangles * 3 - start);
      for (let i = 0; i < n; i++) chunk[i] = start + i;
      fs.writeSync(fd, new Uint8Array(chunk.buffer, 0, n * 4));
    }
  } finally {
    fs.closeSync(fd);
  }
  return { bytes: fs.statSync(file).size, triangles };
}

/** Samples the tree's RSS every 200 ms, with times, until stopped. */
function sampler(pid) {
  const samples = [];
  const take = () => samples.push({ t: performance.now(), kb: treeRssKb(pid) });
  take();
  const timer = setInterval(take, SAMPLE_MS);
  return {
    samples,
    stop: () => {
      clearInterval(timer);
      take();
    },
  };
}

const meanKb = (samples, from, to) => {
  const s = samples.filter((x) => x.t >= from && x.t <= to);
  return s.length ? s.reduce((a, x) => a + x.kb, 0) / s.length : NaN;
};
const bytesOfKb = (kb) => kb * 1024;
const signed = (kb) => `${kb < 0 ? "−" : "+"}${mB(bytesOfKb(Math.abs(kb)))}`;
const missingAfter = (afterKb, idleKb) => ({
  part: PART,
  name: "RSS after",
  value: mB(bytesOfKb(afterKb)),
  goal: `≤ idle + ${mB(GOALS.afterOverIdleBytes)}`,
  verdict: "MISS",
  note: `not measurable: the chain had not settled (${signed(afterKb - idleKb)} over idle when the wait ended)`,
});

export async function runMemory({ browser, deadline = Infinity }) {
  const rows = [];
  const notes = [];
  const server = await new Server("memory").start();
  let rss;
  try {
    log(`\n(3) memory: server pid ${server.pid} on ${server.base}`);
    const user = await signUp(browser, server.base);
    const studio = new StudioHttp(server.base, user.cookie);
    const dir = tempDir("x3d-bench-memory-");
    const meshFile = path.join(dir, "torus-198mb.glb");
    const tGen = performance.now();
    const mesh = writeTorusGlb(meshFile, TARGET_BYTES);
    log(
      `  wrote ${path.basename(meshFile)}: ${mB(mesh.bytes)} (${mesh.bytes} bytes), ${mesh.triangles.toLocaleString("en-US")} triangles (unwelded torus, positions + uint32 indices) in ${fmt((performance.now() - tGen) / 1000, 1)} s`,
    );

    // Warm the routes the chain uses, then idle.
    const warm = await signedInPage(browser, server.base, user);
    await warm.page.goto("/new/texture");
    await warm.context.close();
    await sleep(1_000);
    rss = sampler(server.pid);
    await sleep(IDLE_MS);
    const idleEnd = performance.now();
    const idleKb = meanKb(rss.samples, 0, idleEnd);
    log(`  idle RSS (server tree, mean over ${IDLE_MS / 1000} s): ${fmt(idleKb / 1024, 0)} MB`);

    const chainStart = performance.now();
    const { context, page } = await signedInPage(browser, server.base, user);
    let id;
    let uploadedAt;
    try {
      ({ id, uploadedAt } = await createTextureTask(page, { meshFile }));
    } finally {
      await context.close();
    }
    const createdAt = performance.now();
    log(
      `  uploaded through /new/texture in ${fmt((uploadedAt - chainStart) / 1000, 1)} s; task ${id} created ${fmt((createdAt - uploadedAt) / 1000, 1)} s after submitting`,
    );
    // Wait for the end, as long as the budget allows (the idle "after" still has to fit).
    const waitMs = Math.max(60_000, Math.min(CHAIN_TIMEOUT_MS, deadline - performance.now() - AFTER_MS - 5_000));
    let view = await studio.task(id);
    let sawSuccess;
    while (!view.settled && performance.now() - createdAt < waitMs) {
      await sleep(1000);
      view = await studio.task(id);
      if (view.state === "success" && !sawSuccess) sawSuccess = performance.now();
    }
    const settled = view.settled;
    const settledAt = performance.now();
    log(
      settled
        ? `  settled: ${view.state}${view.errorMessage ? ` (${view.errorMessage})` : ""} ${fmt((settledAt - chainStart) / 1000, 1)} s after the upload began; now idling ${AFTER_MS / 1000} s`
        : `  NOT settled ${fmt((settledAt - chainStart) / 1000, 0)} s after the upload began (state ${view.state}); stopped waiting to stay within the time budget`,
    );
    // Idle after settling; when it did not settle there is no "after" to measure.
    await sleep(settled ? AFTER_MS : IDLE_MS);
    rss.stop();
    const peak = rss.samples.filter((x) => x.t >= chainStart).reduce((a, x) => (x.kb > a.kb ? x : a), { kb: 0, t: 0 });
    const afterKb = meanKb(rss.samples, performance.now() - IDLE_MS, Infinity);
    const wall = (settledAt - chainStart) / 1000;
    const phase =
      peak.t < uploadedAt
        ? "during the upload"
        : peak.t < createdAt
          ? "while the task was created"
          : peak.t < (sawSuccess ?? Infinity) && peak.t <= settledAt
            ? "while the service processed the task"
            : peak.t <= settledAt
              ? "after the service's success, while the studio stored the result"
              : "after the task settled";

    // The profile, for the reader: the highest sample in each 2 s from the start of the upload.
    const profile = [];
    for (let t = chainStart; t < performance.now(); t += 2000) {
      const inStep = rss.samples.filter((x) => x.t >= t && x.t < t + 2000);
      if (inStep.length) profile.push(Math.round(Math.max(...inStep.map((x) => x.kb)) / 1024));
    }
    log(`  RSS (MB, max per 2 s from the upload's start; settled at ${fmt((settledAt - chainStart) / 1000, 0)} s): ${profile.join(" ")}`);
    rows.push(
      figure(
        PART,
        "RSS idle before",
        mB(bytesOfKb(idleKb)),
        undefined,
        true,
        `server tree (next-server and children), mean over ${IDLE_MS / 1000} s`,
      ),
    );
    rows.push(
      figure(
        PART,
        "peak RSS during the chain",
        mB(bytesOfKb(peak.kb)),
        `≤ ${fmt(GOALS.peakBytes / MB / 1024, 1)} GB`,
        bytesOfKb(peak.kb) <= GOALS.peakBytes,
        `${signed(peak.kb - idleKb)} over idle, ${phase} (${fmt((peak.t - chainStart) / 1000, 1)} s in); ${rss.samples.length} samples every ${SAMPLE_MS} ms`,
      ),
    );
    if (!settled) rows.push(missingAfter(afterKb, idleKb));
    else
      rows.push(
        figure(
          PART,
          "RSS after",
          mB(bytesOfKb(afterKb)),
          `≤ idle + ${mB(GOALS.afterOverIdleBytes)}`,
          bytesOfKb(afterKb - idleKb) <= GOALS.afterOverIdleBytes,
          `${signed(afterKb - idleKb)} over idle, mean of the last ${IDLE_MS / 1000} s of ${AFTER_MS / 1000} s idle after settling`,
        ),
      );
    const times = view.stateTimes ?? {};
    const span = (a, b) => (times[a] && times[b] ? `${fmt((Date.parse(times[b]) - Date.parse(times[a])) / 1000, 1)} s` : "—");
    let resultSize = "";
    if (view.result?.url) {
      const head = await fetch(`${server.base}${view.result.url}`, { method: "HEAD", headers: { Cookie: user.cookie } }).catch(
        () => undefined,
      );
      const length = Number(head?.headers.get("content-length"));
      if (head?.status === 200 && length > 0) resultSize = `; result ${mB(length)}`;
    }
    const copy = sawSuccess
      ? `; studio saw success → settled (result stored) ${settled ? `${fmt((settledAt - sawSuccess) / 1000, 1)} s` : "not yet"}`
      : "";
    rows.push(
      figure(
        PART,
        "wall time of the chain",
        `${settled ? "" : "> "}${fmt(wall, 1)} s`,
        undefined,
        true,
        `task ${view.state}${settled ? "" : " (not settled)"}: upload ${fmt((uploadedAt - chainStart) / 1000, 1)} s, submit ${fmt((createdAt - uploadedAt) / 1000, 1)} s, created→processing ${span("created", "processing")}, processing→${view.state} ${span("processing", view.state)}${copy}${resultSize}`,
      ),
    );
    const studioLines = server.out.split("\n").filter((l) => /\[studio\]|error|fail/i.test(l));
    if (studioLines.length)
      notes.push(
        `memory: the server said: ${studioLines
          .slice(-6)
          .map((l) => l.trim().slice(0, 300))
          .join(" | ")}`,
      );
    if (view.state !== "success")
      notes.push(
        `memory: the texture task ended ${view.state}${view.errorMessage ? `: ${view.errorMessage}` : ""}${view.problem ? ` (${view.problem})` : ""}`,
      );
    return { rows, notes };
  } finally {
    rss?.stop();
    await server.dispose();
  }
}
