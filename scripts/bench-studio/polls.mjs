// Part 2 of bench:studio: 200 watchers polling 50 running tasks once a second (as 200 open
// task pages would) while the embedded service generates.
import { Server, cpuMs, figure, fmt, log, ms, percentile, sleep, threadCpu } from "./common.mjs";
import { OpenApi, StudioHttp, createImageTasks, signUp, startWatchers } from "./studio.mjs";

const PART = "2 polls";
export const GOALS = { pollsPerSecond: 190, p99Ms: 50 };
const TASKS = 50;
const WATCHERS = 200;
const PERIOD_MS = 1000;
const WARMUP_MS = 5_000;
const WINDOW_MS = 40_000;
const LOAD_EVERY_MS = 10_000;
// The cheapest image-to-3D the form allows: v1.5, 512, geometry only, the minimum face count.
const CHEAP = { Model: "v1.5", Resolution: "512", Make: "Geometry only", Format: "GLB" };
const CHEAP_FACES = "100000";
// 50 studio tasks hold 50 of the client's slots for 600 s; the generation load (same client)
// needs slots of its own, or it would only queue.
const CONCURRENCY = TASKS + 10;

export async function runPolls({ browser }) {
  const rows = [];
  const notes = [];
  const server = await new Server("polls", { X3D_ENGINE_MIN_TASK_SECONDS: "600", X3D_ENGINE_CONCURRENCY: String(CONCURRENCY) }).start();
  const stops = [];
  try {
    log(
      `\n(2) polls: server pid ${server.pid} on ${server.base} with X3D_ENGINE_MIN_TASK_SECONDS=600 X3D_ENGINE_CONCURRENCY=${CONCURRENCY}`,
    );
    const user = await signUp(browser, server.base);
    const studio = new StudioHttp(server.base, user.cookie);
    const t0 = performance.now();
    const { ids, how } = await createImageTasks(browser, server, user, TASKS, {
      image: "robot.png",
      choose: CHEAP,
      fill: { "Face count": CHEAP_FACES },
    });
    log(
      `  created ${ids.length} tasks (v1.5 512, geometry only, ${CHEAP_FACES} faces, GLB) through ${how} in ${fmt((performance.now() - t0) / 1000, 1)} s`,
    );
    const firstView = await studio.task(ids[0]);
    log(`  options as stored: ${JSON.stringify(firstView.options)}`);

    // Generation load: a default image-to-3D task through the Open API every 10 s, from now on.
    const api = new OpenApi(server.base);
    await api.token();
    const loadIds = [];
    let loadErrors = 0;
    let loading = true;
    const load = (async () => {
      while (loading) {
        try {
          loadIds.push(await api.submitDefault());
        } catch (e) {
          loadErrors++;
          if (loadErrors === 1) notes.push(`polls: generation load: ${e.message}`);
        }
        const until = performance.now() + LOAD_EVERY_MS;
        while (loading && performance.now() < until) await sleep(200);
      }
    })();
    stops.push(async () => {
      loading = false;
      await load;
    });

    // All 50 running (processing, not queueing) before the watchers start.
    const deadline = Date.now() + 120_000;
    let states;
    for (;;) {
      states = await Promise.all(ids.map((id) => studio.task(id).then((v) => v.state)));
      if (states.every((s) => s === "processing") || Date.now() > deadline) break;
      await sleep(1000);
    }
    const count = (list) =>
      Object.entries(list.reduce((a, s) => ({ ...a, [s]: (a[s] ?? 0) + 1 }), {}))
        .map(([s, k]) => `${k} ${s}`)
        .join(", ");
    log(`  studio tasks: ${count(states)}`);
    if (!states.every((s) => s === "processing"))
      notes.push(`polls: not all ${TASKS} tasks were processing when the watchers started (${count(states)})`);

    // 200 watchers, each on its own task (i % 50), once a second, with If-None-Match when there is an ETag.
    const samples = [];
    const windowStart = performance.now() + WARMUP_MS;
    const windowEnd = windowStart + WINDOW_MS;
    const pid = server.servingPid;
    const watchers = startWatchers({
      base: server.base,
      cookie: user.cookie,
      ids,
      count: WATCHERS,
      periodMs: PERIOD_MS,
      onPoll: (p) => {
        if (p.start >= windowStart && p.start < windowEnd) samples.push({ ...p, latency: p.end - p.start });
      },
    });
    log(
      `  ${WATCHERS} watchers on ${ids.length} tasks, 1 poll/s each: ${WARMUP_MS / 1000} s warm-up, then ${WINDOW_MS / 1000} s measured…`,
    );
    await sleep(WARMUP_MS);
    const cpu0 = { process: cpuMs(`/proc/${pid}/stat`), threads: threadCpu(pid) };
    await sleep(WINDOW_MS);
    const cpu1 = { process: cpuMs(`/proc/${pid}/stat`), threads: threadCpu(pid) };
    await watchers.stop();
    const loadStates = await Promise.all(loadIds.map((id) => api.state(id).catch(() => "?")));
    loading = false;

    // ------------------------------------------------------------ figures
    const inWindow = samples.filter((s) => s.end <= windowEnd + 30_000);
    const ok = inWindow.filter((s) => (s.status >= 200 && s.status < 300) || s.status === 304);
    const bad = inWindow.length - ok.length;
    const perSecond = samples.filter((s) => s.end >= windowStart && s.end < windowEnd).length / (WINDOW_MS / 1000);
    const lat = inWindow.map((s) => s.latency);
    const p50 = percentile(lat, 50);
    const p99 = percentile(lat, 99);
    const delta = (tid) => (cpu1.threads.get(tid)?.ms ?? 0) - (cpu0.threads.get(tid)?.ms ?? 0);
    const mainName = cpu1.threads.get(String(pid))?.name;
    let workers = 0;
    let vips = 0;
    let web = 0;
    // Worker threads carry the process's name; they may end within the window (the pool
    // recycles them), and an ended thread's time stays only in the process total: workers are
    // the total minus the threads that are not workers.
    for (const [tid, t] of cpu1.threads) {
      const d = delta(tid);
      if (tid !== String(pid) && t.name === mainName) continue;
      if (/vips/i.test(t.name)) vips += d;
      else web += d;
    }
    const whole = cpu1.process - cpu0.process;
    workers = Math.max(0, whole - web - vips);
    const polls = samples.filter((s) => s.end >= windowStart && s.end < windowEnd).length;
    const generating = workers > 0.2 * WINDOW_MS;

    rows.push(
      figure(
        PART,
        "polls/s served",
        fmt(perSecond, 1),
        `≥ ${GOALS.pollsPerSecond}`,
        perSecond >= GOALS.pollsPerSecond,
        `${polls} answers in the ${WINDOW_MS / 1000} s window; ${WATCHERS} watchers × 1/s = 200 asked`,
      ),
    );
    rows.push(figure(PART, "poll latency p50", ms(p50), undefined, true, `${inWindow.length} polls started in the window`));
    rows.push(figure(PART, "poll latency p99", ms(p99), `≤ ${GOALS.p99Ms} ms`, p99 <= GOALS.p99Ms, `max ${ms(Math.max(...lat))}`));
    rows.push(
      figure(
        PART,
        "polls not 2xx/304",
        String(bad),
        "0",
        bad === 0,
        bad
          ? `statuses: ${[...new Set(inWindow.map((s) => s.status))].join(", ")} (-1: no answer)`
          : `${inWindow.filter((s) => s.status === 304).length} were 304; ETag ${inWindow.some((s) => s.etag) ? "sent" : "never sent by the route"}`,
      ),
    );
    rows.push(
      figure(
        PART,
        "server CPU per poll",
        polls ? `${fmt(web / polls, 2)} ms` : "—",
        undefined,
        true,
        `web threads (main + node helpers) ${fmt(web / 1000, 1)} s; whole process ${fmt(whole / 1000, 1)} s = ${polls ? fmt(whole / polls, 2) : "—"} ms/poll incl. generation (worker threads ${fmt(workers / 1000, 1)} s, libvips ${fmt(vips / 1000, 1)} s)`,
      ),
    );
    notes.push(
      `polls: generation load: a default image-to-3D (x3dv3.0 2048quality 2M faces, GLB) through the Open API of the same server every ${LOAD_EVERY_MS / 1000} s ` +
        `(${loadIds.length} submitted, now ${count(loadStates)}); worker threads (the engine's, and any other) used ${fmt(workers / 1000, 1)} s CPU in the ${WINDOW_MS / 1000} s window` +
        (generating ? "" : " — little: generation was NOT running much during the measurement"),
    );
    notes.push(
      `polls: X3D_ENGINE_CONCURRENCY=${CONCURRENCY} instead of 50: the studio's ${TASKS} tasks and the Open API load share one client, and ${TASKS} slots would leave the load queueing`,
    );
    return { rows, notes };
  } finally {
    for (const stop of stops) await stop().catch(() => {});
    await server.dispose();
  }
}
