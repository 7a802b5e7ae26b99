import type { Page } from "@playwright/test";
import { createImageTask, expect, test } from "./fixtures";

// Generation on the embedded service takes a few seconds; the whole flow gets more time.
test.describe.configure({ timeout: 150_000 });

interface Seen {
  state: string;
  at: number;
}
declare global {
  interface Window {
    __stateLog?: Seen[];
    __titleLog?: string[];
  }
}

/**
 * Records, in the page, the wall-clock time at which the task state's data-state takes each
 * value, and each title the tab takes. Installed before the page's own scripts run, so no change
 * is missed.
 */
async function recordStates(page: Page) {
  await page.addInitScript(() => {
    const states: Seen[] = (window.__stateLog = []);
    const titles: string[] = (window.__titleLog = []);
    const note = () => {
      const state = document.querySelector<HTMLElement>("[data-testid=task-state]")?.dataset.state;
      if (state && states.at(-1)?.state !== state) states.push({ state, at: Date.now() });
      if (titles.at(-1) !== document.title) titles.push(document.title);
    };
    new MutationObserver(note).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ["data-state"],
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return Number.isInteger(mid) ? ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2 : (sorted[Math.floor(mid)] ?? NaN);
}

test("each state shows within a second of the studio learning it, in the tab's title too", async ({ page, account }) => {
  expect(account.email).toContain("@"); // signed up: the fixture runs only when named
  await recordStates(page);
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/tasks/events");
  const id = await createImageTask(page);
  // The stream: server-sent events, sent plain (next start would gzip it otherwise).
  const headers = (await stream).headers();
  expect(headers["content-type"]).toBe("text/event-stream; charset=utf-8");
  expect(headers["content-encoding"]).toBeUndefined();
  expect(headers["cache-control"]).toBe("no-cache, no-transform");

  await expect(page.getByTestId("task-state")).toHaveAttribute("data-state", "success", { timeout: 90_000 });
  await expect(page).toHaveTitle(/^Done · Image to 3D/);
  await expect(page.getByRole("link", { name: /^Download GLB$/ })).toBeVisible({ timeout: 30_000 });

  const log = await page.evaluate(() => window.__stateLog ?? []);
  const answer = await page.request.get(`/api/tasks/${encodeURIComponent(id)}`);
  const { stateTimes } = (await answer.json()) as { stateTimes: Record<string, string> };
  // The state the page was rendered with has no change to time; every later one does.
  const changes = log.slice(1);
  expect(changes.map((c) => c.state)).toContain("success");
  const delays = changes.map((c) => {
    const learned = stateTimes[c.state];
    expect(learned, `the studio's time of learning ${c.state}`).toBeDefined();
    return { state: c.state, ms: c.at - Date.parse(learned ?? "") };
  });
  const ms = delays.map((d) => d.ms);
  const report = `shown after the studio learned it: ${delays.map((d) => `${d.state} ${d.ms} ms`).join(", ")} (median ${median(ms)}, max ${Math.max(...ms)})`;
  test.info().annotations.push({ type: "delays", description: report });
  console.log(`[live.spec] ${report}`);
  for (const d of delays) {
    expect(d.ms, `${d.state} shown ${d.ms} ms after the studio learned it`).toBeLessThan(1000);
    // Same machine, same clock: a state is never shown before the studio knew it (a few ms of clock reading aside).
    expect(d.ms, d.state).toBeGreaterThan(-20);
  }
  // The tab's title followed each state as it came, in order.
  const labels: Record<string, string> = { created: "Created", queueing: "Queueing", processing: "Processing", success: "Done" };
  const titles = (await page.evaluate(() => window.__titleLog ?? [])).filter((t) => / · Image to 3D · x3d studio$/.test(t));
  expect(titles).toEqual(log.map((c) => `${labels[c.state]} · Image to 3D · x3d studio`));
});

test("with the event stream blocked, the page still reaches Done by polling every 2 s", async ({ page, account }) => {
  expect(account.email).toContain("@"); // signed up: the fixture runs only when named
  const blocked: number[] = [];
  await page.route(
    (url) => url.pathname === "/api/tasks/events",
    (route) => {
      blocked.push(Date.now());
      return route.abort();
    },
  );
  const polls: number[] = [];
  page.on("request", (r) => {
    if (/^\/api\/tasks\/[^/]+$/.test(new URL(r.url()).pathname) && !r.url().endsWith("/events")) polls.push(Date.now());
  });
  await createImageTask(page);
  await expect(page.getByTestId("task-state")).toHaveAttribute("data-state", "success", { timeout: 90_000 });
  await expect(page).toHaveTitle(/^Done · Image to 3D/);
  expect(blocked.length).toBeGreaterThan(0);
  // Polling at the fallback pace: a poll every 2 s, against every 4 s while the stream is open. A
  // tick that comes while the last poll is still unanswered is skipped, so on a loaded machine some
  // gaps are 4 s (a full CI run's median was 3.56 s); the open pace never goes below 4 s, so a
  // median under 3.9 s still tells the two apart.
  const gaps = polls.slice(1).map((t, i) => t - (polls[i] ?? t));
  console.log(`[live.spec] poll gaps (ms): ${gaps.join(", ")}`);
  expect(gaps.length).toBeGreaterThan(0);
  expect(median(gaps)).toBeGreaterThan(1_500);
  expect(median(gaps)).toBeLessThan(3_900);
});

interface Note {
  title: string;
  body?: string;
  tag?: string;
}
declare global {
  interface Window {
    __notes?: Note[];
  }
}

test("a task that finishes while its tab is hidden is announced by a notification, once the artist asked for them", async ({
  page,
  account,
}) => {
  expect(account.email).toContain("@");
  // The browser's notifications, recorded instead of shown, with the permission granted when asked;
  // and a tab hidden from the moment the flag is set (kept across pages in sessionStorage).
  await page.addInitScript(() => {
    const notes: Note[] = (window.__notes = []);
    class RecordedNotification {
      static permission: NotificationPermission = "default";
      static requestPermission = async () => (RecordedNotification.permission = "granted");
      constructor(title: string, options: NotificationOptions = {}) {
        notes.push({ title, body: options.body, tag: options.tag });
      }
    }
    Object.defineProperty(window, "Notification", { value: RecordedNotification, configurable: true });
    if (sessionStorage.getItem("hidden") === "1") {
      RecordedNotification.permission = "granted";
      Object.defineProperty(document, "visibilityState", { get: () => "hidden", configurable: true });
    }
  });
  await createImageTask(page);
  const toggle = page.getByRole("button", { name: "Notify me when tasks finish" });
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  expect(await page.evaluate(() => localStorage.getItem("x3d.notify-finished"))).toBe("on");
  await expect(page.getByTestId("task-state")).toHaveAttribute("data-state", "success", { timeout: 90_000 });
  expect(await page.evaluate(() => window.__notes)).toEqual([]); // finished in plain sight: no notification

  // The next task runs in a hidden tab (its page does not poll then: the stream alone brings the end).
  await page.evaluate(() => sessionStorage.setItem("hidden", "1"));
  const id = await createImageTask(page);
  expect(await page.evaluate(() => document.visibilityState)).toBe("hidden");
  await expect(page.getByTestId("task-state")).toHaveAttribute("data-state", "success", { timeout: 90_000 });
  await expect
    .poll(() => page.evaluate(() => window.__notes))
    .toEqual([{ title: "Done · Image to 3D", body: "The result is ready.", tag: `x3d-task-${id}` }]);
});
