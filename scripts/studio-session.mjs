// What scripts/screens.mjs and scripts/bench-first-load.mjs share: Chromium, the command line,
// and a studio to look at (an artist with finished image-to-3D tasks, a share link, an admin),
// all set up through the UI as a user would, against a running `next start` (--base).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const FIXTURES = path.resolve(import.meta.dirname, "../test/fixtures");

/**
 * The create form's fields, in one place so the scripts follow the form when it changes: a
 * choice is a radio (segmented control) named `option` inside the radiogroup or group (a Radix
 * ToggleGroup) labelled `label` when there is one, else the page's only radio of that name, else
 * an option of the <select> labelled `label` (matched by value or label).
 */
export async function chooseOption(page, label, option) {
  const group = page.getByRole("radiogroup", { name: label, exact: true }).or(page.getByRole("group", { name: label, exact: true }));
  const inGroup = group.getByRole("radio", { name: option, exact: true });
  if (await inGroup.count()) return inGroup.first().check();
  const radio = page.getByRole("radio", { name: option, exact: true });
  if ((await radio.count()) === 1) return radio.check();
  await page.getByLabel(label, { exact: true }).selectOption(option);
}

/** Image to 3D through /new/image with the cheap options (v1.5, 512, GLB); returns the task id once on its page. */
export async function createImageTask(page, { image = "robot.png", faces } = {}) {
  await page.goto("/new/image");
  // The zone is ready once its drop handling (react-dropzone, loaded after the page) is in place.
  await page.locator('[data-testid="image-drop"][data-ready="true"]').waitFor({ timeout: 60_000 });
  await page.getByTestId("image-drop").locator('input[type="file"]').setInputFiles(path.join(FIXTURES, image));
  // The upload id lands in the hidden input when the upload is done.
  await page.waitForFunction(() => document.querySelector('input[name="images"]')?.value, null, { timeout: 60_000, polling: 100 });
  await chooseOption(page, "Model", "v1.5");
  await chooseOption(page, "Resolution", "512");
  if (faces !== undefined) await page.getByLabel("Face count (exact)", { exact: true }).fill(String(faces));
  await chooseOption(page, "Format", "GLB");
  const before = new URL(page.url()).searchParams.get("task");
  await page.getByRole("button", { name: "Create 3D model" }).click();
  // The workspace stays: the new task is selected and named in the address (?task=<id>). Builds
  // before the workspace went to the task's page instead (/tasks/<id>): the benchmarks still run
  // against one as their reference.
  const created = (url) => {
    const task = url.searchParams.get("task");
    if (task !== null && task !== before) return task;
    return /^\/tasks\/([^/]+)$/.exec(url.pathname)?.[1] ?? null;
  };
  await page.waitForURL((url) => created(url) !== null, { timeout: 60_000 });
  const id = decodeURIComponent(created(new URL(page.url())));
  await page.goto(`/tasks/${encodeURIComponent(id)}`);
  return id;
}

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

export const ADMIN_EMAIL = "screens-admin@example.com";
const ADMIN_PASSWORD = "screens admin password kiln";

/** `--base URL` (required) and any other `--name value` pairs of argv. */
export function parseArgs(argv, { usage, required = ["base"] }) {
  const args = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) throw new Error(`unexpected argument ${argv[i]}\n${usage}`);
    if (m[1] === "help") {
      console.log(usage);
      process.exit(0);
    }
    args[m[1]] = m[2] ?? argv[++i];
    if (args[m[1]] === undefined) throw new Error(`--${m[1]} needs a value\n${usage}`);
  }
  for (const name of required) if (!args[name]) throw new Error(`--${name} is required\n${usage}`);
  args.base = args.base.replace(/\/+$/, "");
  return args;
}

/** Debian's /usr/bin/chromium when present, else Playwright's own browser. */
export async function launchBrowser() {
  let chromium;
  try {
    ({ chromium } = await import("playwright-core"));
  } catch {
    ({ chromium } = await import("@playwright/test"));
  }
  const system = fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
  return chromium.launch({ ...(system ? { executablePath: system } : {}), args: CHROMIUM_ARGS });
}

/** Signs `account` up through /sign-up (or in through /sign-in when it exists); returns its storage state. */
async function signUpOrIn(browser, base, account) {
  const context = await browser.newContext({ baseURL: base });
  try {
    const page = await context.newPage();
    await page.goto("/sign-up");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Create account" }).click();
    const signedIn = page.getByTestId("user-email").filter({ hasText: account.email });
    const taken = page.getByText("An account with this email exists");
    // The first sign-up of a fresh server also creates its database: allow for it.
    await signedIn.or(taken).first().waitFor({ timeout: 60_000 });
    if (await taken.isVisible()) {
      await page.goto("/sign-in");
      await page.getByLabel("Email").fill(account.email);
      await page.getByLabel("Password").fill(account.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await signedIn.waitFor({ timeout: 60_000 });
    }
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** Opens /tasks/<id> on `page` and waits (up to 3 min) until its viewer has drawn full detail. */
export async function openFinishedTask(page, id, timeout = 180_000) {
  await page.goto(`/tasks/${encodeURIComponent(id)}`);
  await page.locator('[data-testid="model-viewer"][data-state="ready"]').first().waitFor({ timeout });
}

/**
 * A studio to look at: a fresh artist with `tasks` finished GLB image-to-3D tasks (the second
 * with 200,000 faces and chair.png, so two results differ), a share link on the first when
 * `share`, and the admin (ADMIN_EMAILS must name `adminEmail`) when `admin`.
 */
export async function setUpStudio(browser, base, { tasks = 2, share = true, admin = true, adminEmail = ADMIN_EMAIL, log = () => {} } = {}) {
  const artist = { email: `screens-${crypto.randomBytes(4).toString("hex")}@example.com`, password: "a long screens password" };
  log(`signing up ${artist.email}`);
  const artistState = await signUpOrIn(browser, base, artist);
  const context = await browser.newContext({ baseURL: base, storageState: artistState });
  try {
    const page = await context.newPage();
    const ids = [];
    const recipes = [{}, { image: "chair.png", faces: 200_000 }];
    for (let i = 0; i < tasks; i++) {
      ids.push(await createImageTask(page, recipes[i % recipes.length]));
      log(`created task ${ids[i]}`);
    }
    for (const id of ids) {
      await openFinishedTask(page, id);
      log(`task ${id} is finished and drawn`);
    }
    let shareToken;
    if (share && ids.length) {
      await openFinishedTask(page, ids[0]);
      await page.getByRole("tab", { name: "Share" }).click();
      await page.getByRole("button", { name: "Create share link" }).click();
      const link = page.getByTestId("share-link");
      await link.waitFor({ timeout: 30_000 });
      shareToken = new URL(await link.inputValue()).pathname.split("/").pop();
      log(`share link /share/${shareToken}`);
    }
    const adminState = admin ? await signUpOrIn(browser, base, { email: adminEmail, password: ADMIN_PASSWORD }) : undefined;
    if (admin) log(`admin ${adminEmail} signed in`);
    return { artist, artistState, adminState, taskIds: ids, shareToken };
  } finally {
    await context.close();
  }
}
