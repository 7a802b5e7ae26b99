// The JavaScript a page fetches, as bench:studio's viewer part (scripts/bench-studio/viewer.mjs)
// and e2e/viewer-chunks.spec.ts count it: each script once with its compressed size and text,
// and which modules (by the marker strings of e2e/viewer-chunks.json) are in it.

/** Quiet this long (nothing asked for or answered) and the page has fetched what it will. */
const IDLE_MS = 1500;

/**
 * Every JavaScript answer the page and its workers receive (Playwright's events see the
 * workers' requests, which the page's CDP session does not), one per URL with its compressed
 * size, and a wait until nothing has been asked for or answered for IDLE_MS (the live updates'
 * event stream stays open for the page's life: not counted).
 */
export function recordScripts(page) {
  const scripts = new Map();
  const pending = new Set();
  let last = performance.now();
  const counted = (request) => request.resourceType() !== "eventsource";
  page.on("request", (request) => {
    if (!counted(request)) return;
    pending.add(request);
    last = performance.now();
  });
  page.on("requestfailed", (request) => {
    pending.delete(request);
    last = performance.now();
  });
  page.on("requestfinished", (request) => {
    pending.delete(request);
    last = performance.now();
    if (!counted(request)) return;
    const reading = (async () => {
      const response = await request.response();
      if (!response || !/javascript/.test(response.headers()["content-type"] ?? "")) return;
      const [sizes, body] = await Promise.all([request.sizes(), response.text().catch(() => "")]);
      const seen = scripts.get(request.url());
      // An answer from the cache (a worker importing what the page has) moved no bytes.
      scripts.set(request.url(), {
        url: request.url(),
        bytes: Math.max(0, sizes.responseBodySize, seen?.bytes ?? 0),
        body: body || seen?.body || "",
      });
    })().catch(() => {});
    pending.add(reading);
    void reading.finally(() => pending.delete(reading));
  });
  return {
    scripts,
    async idle(maxMs = 60_000) {
      const deadline = performance.now() + maxMs;
      while (pending.size > 0 || performance.now() - last < IDLE_MS) {
        if (performance.now() > deadline) return false;
        await new Promise((r) => setTimeout(r, 100));
      }
      return true;
    },
  };
}

/** The names in `group` (name → marker string) whose marker is in `body`. */
export const markersIn = (group, body) =>
  Object.entries(group)
    .filter(([, marker]) => body.includes(marker))
    .map(([name]) => name);
