// Driving the studio as a user does: Chromium through Playwright (sign up, the create forms),
// then plain HTTP with the browser's session cookie; and the Open API with the client pair.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { CLIENT_ID, CLIENT_SECRET, FIXTURES, onCleanup, sleep } from "./common.mjs";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Debian's /usr/bin/chromium when present, else Playwright's own browser. */
export async function launchBrowser() {
  const { chromium } = await import("@playwright/test");
  const system = fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
  const browser = await chromium.launch({ ...(system ? { executablePath: system } : {}), args: CHROMIUM_ARGS });
  onCleanup(() => {
    // Synchronous exit path: kill the browser process outright.
    try {
      browser.process?.()?.kill("SIGKILL");
    } catch {
      // gone
    }
  });
  return { browser, which: `${system ?? "Playwright's Chromium"} ${browser.version()}` };
}

/** Signs a fresh account up through /sign-up; returns the signed-in storage state and a Cookie header. */
export async function signUp(browser, base) {
  const context = await browser.newContext({ baseURL: base });
  try {
    const page = await context.newPage();
    const email = `bench-${crypto.randomBytes(4).toString("hex")}@example.com`;
    await page.goto("/sign-up");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a long bench password");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByTestId("user-email").filter({ hasText: email }).waitFor({ timeout: 60_000 });
    const storageState = await context.storageState();
    const cookie = storageState.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    return { email, storageState, cookie };
  } finally {
    await context.close();
  }
}

/** A page of a fresh context signed in as `user`. */
export async function signedInPage(browser, base, user) {
  const context = await browser.newContext({ baseURL: base, storageState: user.storageState });
  return { context, page: await context.newPage() };
}

/**
 * Chooses `files` in the file input `input` once its drop zone's handlers are in place (the zone
 * says so with data-ready, as e2e/fixtures.ts's setFiles waits for): a file chosen before the
 * page hydrates is dropped, and the upload it should start never comes (two heavy-polls runs
 * ended that way, waiting 60 s for an upload id).
 */
async function chooseFiles(input, files) {
  await input.locator("xpath=..").and(input.page().locator('[data-ready="true"]')).waitFor({ timeout: 60_000 });
  await input.setInputFiles(files);
}

/** Waits until the hidden input `name` of the form holds an upload id. */
async function uploaded(page, name, timeout = 60_000) {
  await page.waitForFunction((n) => document.querySelector(`input[name="${n}"]`)?.value, name, { timeout, polling: 100 });
}

/** The task id from a /tasks/<id> URL. */
/**
 * The task a create form just made: the workspace stays and names it in its address (`?task=`);
 * then its task page is opened, where the benchmarks watch it.
 */
async function openCreatedTask(page, timeout) {
  await page.waitForURL((url) => url.searchParams.has("task"), { timeout });
  const id = new URL(page.url()).searchParams.get("task");
  await page.goto(`/tasks/${encodeURIComponent(id)}`);
  return id;
}

/**
 * Image to 3D through /new/image: drops `image` in the file input, applies `choose` (choice group's
 * label → the option's label, as shown; none keeps the form's defaults) and `fill` (text fields), submits. Returns the id and the options the
 * form showed when submitted.
 */
export async function createImageTask(page, { image = "robot.png", choose = {}, fill = {} } = {}) {
  await page.goto("/new/image");
  await chooseFiles(page.getByTestId("image-drop").locator('input[type="file"]'), path.join(FIXTURES, image));
  await uploaded(page, "images");
  // A choice is a radio group named by its label, each option a radio named by its own label ("v1.5").
  for (const [group, option] of Object.entries(choose)) {
    const radio = page.getByRole("radiogroup", { name: group, exact: true }).getByRole("radio", { name: option, exact: true });
    // Again until it takes: a click before the page is hydrated does nothing.
    for (let i = 0; !(await radio.isChecked()); i++) {
      if (i === 60) throw new Error(`could not choose ${option} for ${group}`);
      await radio.click();
      await page.waitForTimeout(i ? 500 : 0);
    }
  }
  for (const [label, value] of Object.entries(fill)) await page.getByLabel(label, { exact: true }).fill(value);
  const shown = await page.evaluate(() => {
    const out = {};
    for (const el of document.querySelectorAll("form select, form input:not([type=hidden]):not([type=file])")) {
      const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent?.trim() : undefined;
      out[label || el.name || el.id] = el.tagName === "SELECT" ? el.options[el.selectedIndex]?.text : el.value;
    }
    return out;
  });
  await page.getByRole("button", { name: "Create 3D model" }).click();
  return { id: await openCreatedTask(page, 60_000), shown };
}

/**
 * Creates `n` image-to-3D tasks of `recipe` (createImageTask's): the first through /new/image and records the form's server-action request;
 * the others replay that request with the session cookie (a few ms each instead of a page
 * load, upload and form per task), or, if a replay does not answer with a redirect to a new
 * task, go through the form one by one.
 */
export async function createImageTasks(browser, server, user, n, recipe) {
  const { context, page } = await signedInPage(browser, server.base, user);
  const ids = [];
  let how = "the form";
  try {
    let action;
    page.on("request", (req) => {
      if (req.method() === "POST" && req.headers()["next-action"] && !action)
        action = { url: req.url(), headers: req.headers(), body: req.postDataBuffer() };
    });
    const viaForm = () => createImageTask(page, recipe);
    const first = await viaForm();
    ids.push(first.id);
    if (action?.body) {
      const headers = { ...action.headers, cookie: user.cookie };
      delete headers["content-length"];
      for (const k of Object.keys(headers)) if (k.startsWith(":")) delete headers[k];
      while (ids.length < n) {
        const res = await fetch(action.url, {
          method: "POST",
          headers,
          body: action.body,
          redirect: "manual",
          signal: AbortSignal.timeout(60_000),
        });
        // The action answers the new task ({"status":"created","id":...}) in its RSC body.
        const m = /"status":"created","id":"([^"]+)"/.exec(await res.text());
        if (!m || ids.includes(m[1])) break;
        ids.push(m[1]);
      }
      if (ids.length === n) how = `the form once, then its server-action request replayed ${n - 1} times`;
    }
    while (ids.length < n) ids.push((await viaForm()).id);
  } finally {
    await context.close();
  }
  return { ids, how };
}

/** Texture a GLB (/new/texture): the mesh file and the image go through the form's drop zones. */
export async function createTextureTask(page, { meshFile, image = "robot.png", uploadTimeout = 300_000 }) {
  await page.goto("/new/texture");
  await chooseFiles(page.getByTestId("mesh-drop-input"), meshFile);
  await chooseFiles(page.getByTestId("image-drop").locator('input[type="file"]'), path.join(FIXTURES, image));
  await uploaded(page, "images");
  await uploaded(page, "mesh", uploadTimeout);
  const uploadedAt = performance.now();
  await page.getByRole("button", { name: "Texture the model" }).click();
  return { id: await openCreatedTask(page, 300_000), uploadedAt };
}

/** The studio over HTTP with the session cookie; one keep-alive connection pool (fetch's). */
export class StudioHttp {
  constructor(base, cookie) {
    this.base = base;
    this.cookie = cookie;
  }

  async get(pathname, { headers = {}, timeoutMs = 30_000 } = {}) {
    return fetch(`${this.base}${pathname}`, { headers: { Cookie: this.cookie, ...headers }, signal: AbortSignal.timeout(timeoutMs) });
  }

  async task(id) {
    const res = await this.get(`/api/tasks/${encodeURIComponent(id)}`);
    if (res.status !== 200) throw new Error(`GET /api/tasks/${id}: HTTP ${res.status}`);
    return res.json();
  }

  /** Saves a file of the studio to `dest`, streamed; returns its size. */
  async download(pathname, dest) {
    const res = await this.get(pathname, { timeoutMs: 300_000 });
    if (res.status !== 200) throw new Error(`GET ${pathname}: HTTP ${res.status}`);
    const out = fs.createWriteStream(dest);
    let size = 0;
    for await (const chunk of res.body) {
      size += chunk.length;
      if (!out.write(chunk)) await new Promise((r) => out.once("drain", r));
    }
    await new Promise((resolve, reject) => out.end((e) => (e ? reject(e) : resolve())));
    return size;
  }
}

/**
 * `count` watchers polling GET /api/tasks/<id> once every `periodMs` each (watcher i on
 * ids[i % ids.length], starting at a random moment of the first period), with If-None-Match once
 * an ETag came, as open task pages do. `onPoll` gets each poll's start and end
 * (performance.now()), its status (-1: no answer) and whether an ETag was held. `stop()` ends them.
 */
export function startWatchers({ base, cookie, ids, count, periodMs, onPoll }) {
  let running = true;
  const watcher = async (i) => {
    const id = ids[i % ids.length];
    let etag;
    let next = performance.now() + Math.random() * periodMs;
    while (running) {
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      if (!running) break;
      const start = performance.now();
      next = start + periodMs;
      let status = 0;
      try {
        const res = await fetch(`${base}/api/tasks/${encodeURIComponent(id)}`, {
          headers: { Cookie: cookie, ...(etag ? { "If-None-Match": etag } : {}) },
          signal: AbortSignal.timeout(30_000),
        });
        await res.arrayBuffer();
        status = res.status;
        etag = res.headers.get("etag") ?? etag;
      } catch {
        status = -1;
      }
      onPoll({ start, end: performance.now(), status, etag: !!etag });
    }
  };
  const all = Array.from({ length: count }, (_, i) => watcher(i));
  return {
    async stop() {
      running = false;
      await Promise.all(all);
    },
  };
}

/** The embedded service's Open API with the configured client pair. */
export class OpenApi {
  constructor(base) {
    this.base = base;
  }

  async token() {
    const res = await fetch(`${this.base}/open-api/v1/auth/token`, {
      method: "POST",
      headers: { Authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}` },
      signal: AbortSignal.timeout(30_000),
    });
    const body = await res.json();
    if (body.code !== 200) throw new Error(`token: ${JSON.stringify(body)}`);
    this.bearer = `Bearer ${body.data.accessToken}`;
  }

  /** submit-task with the studio's default image-to-3D options (x3dv3.0 2048quality 2M faces, textured + pbr, GLB). */
  async submitDefault(image = "robot.png") {
    if (!this.bearer) await this.token();
    const form = new FormData();
    form.append("images", new Blob([fs.readFileSync(path.join(FIXTURES, image))]), image);
    for (const [k, v] of Object.entries({
      model: "x3dv3.0",
      resolution: "2048quality",
      face: "2000000",
      request_type: "3",
      pbr: "1",
      format: "2",
    }))
      form.append(k, v);
    const res = await fetch(`${this.base}/open-api/v1/submit-task`, {
      method: "POST",
      headers: { Authorization: this.bearer },
      body: form,
      signal: AbortSignal.timeout(60_000),
    });
    const body = await res.json();
    if (body.code !== 200) throw new Error(`submit-task: ${JSON.stringify(body)}`);
    return body.data.task_id;
  }

  async state(taskId) {
    const res = await fetch(`${this.base}/open-api/v1/query-task?task_id=${encodeURIComponent(taskId)}`, {
      headers: { Authorization: this.bearer },
      signal: AbortSignal.timeout(30_000),
    });
    const body = await res.json();
    return body.data?.state ?? `code ${body.code}`;
  }
}
