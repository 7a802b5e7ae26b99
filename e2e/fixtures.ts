import { expect, test as base, type Locator, type Page } from "@playwright/test";
import crypto from "node:crypto";
import path from "node:path";
import { ADMIN_EMAIL } from "./admin-account";

const FIXTURES = path.resolve(import.meta.dirname, "../test/fixtures");
export const fixture = (name: string) => path.join(FIXTURES, name);

export interface Account {
  email: string;
  password: string;
}

/** Signs a new account up through the UI and leaves the page on the studio's home. */
export async function signUp(page: Page, account: Account = newAccount()): Promise<Account> {
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Create account" }).click();
  // The first sign-up of a fresh server also creates its database and loads the password
  // checker's dictionaries (about 5.5 s on 2 busy cores): more than expect's default 5 s.
  await expect(page.getByTestId("user-email")).toHaveText(account.email, { timeout: 30_000 });
  return account;
}

/**
 * Share of the viewer canvas's pixels that differ from its corner (background) colour: the
 * model is drawn, not just a canvas put on the page.
 */
export async function drawnShare(page: Page): Promise<number> {
  const canvas = page.getByTestId("viewer-canvas");
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  return canvas.evaluate((c: HTMLCanvasElement) => {
    const copy = document.createElement("canvas");
    copy.width = c.width;
    copy.height = c.height;
    const ctx = copy.getContext("2d")!;
    ctx.drawImage(c, 0, 0);
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    const [r0, g0, b0, a0] = [data[0]!, data[1]!, data[2]!, data[3]!];
    let differ = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i]! - r0) + Math.abs(data[i + 1]! - g0) + Math.abs(data[i + 2]! - b0) + Math.abs(data[i + 3]! - a0) > 24) differ++;
    }
    return differ / (data.length / 4);
  });
}

export function newAccount(): Account {
  return { email: `artist-${crypto.randomBytes(4).toString("hex")}@example.com`, password: "a long password" };
}

/** A page already signed in as a fresh account. */
export const test = base.extend<{ account: Account }>({
  // The fixture callback is named `provide`, not `use`, so React's hook lint leaves it alone.
  account: async ({ page }, provide) => {
    await provide(await signUp(page));
  },
});
export { expect };

export interface ImageTaskOptions {
  image?: string;
  format?: "GLB" | "OBJ" | "STL";
  /** Left at the form's default for the resolution (500,000 for 512) when absent. */
  faces?: number;
}

/**
 * Gives a drop zone's file input these files once the zone is ready (`data-ready` on the zone,
 * the input's parent: its drop handling, react-dropzone's, is in place). A file set before then
 * could land on the stand-in zone just as it is replaced.
 */
export async function setFiles(input: Locator, files: Parameters<Locator["setInputFiles"]>[0]): Promise<void> {
  await expect(input.locator("xpath=..")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  await input.setInputFiles(files);
}

/** Submits a cheap image-to-3D task (v1.5, 512) through the workspace's form, then opens its task page; returns its studio id. */
export async function createImageTask(
  page: Page,
  { image = fixture("robot.png"), format = "GLB", faces }: ImageTaskOptions = {},
): Promise<string> {
  await page.goto("/new/image");
  await setFiles(page.getByTestId("image-drop").locator('input[type="file"]'), image);
  await expect(page.locator('input[name="images"]')).not.toHaveValue("", { timeout: 20_000 });
  await chooseOption(page, "Model", "v1.5");
  await chooseOption(page, "Resolution", "512");
  if (faces !== undefined) await page.getByLabel("Face count (exact)").fill(String(faces));
  await chooseOption(page, "Format", format);
  await page.getByRole("button", { name: "Create 3D model" }).click();
  const id = await newTaskShown(page);
  await page.goto(`/tasks/${encodeURIComponent(id)}`);
  return id;
}

/**
 * The id of the task a workspace's form just created: the page stays, names it in its address
 * (`?task=`, which was `previous` before) and shows it first in the strip, selected.
 */
export async function newTaskShown(page: Page, previous: string | null = null): Promise<string> {
  await page.waitForURL((url) => url.searchParams.has("task") && url.searchParams.get("task") !== previous, { timeout: 30_000 });
  const id = new URL(page.url()).searchParams.get("task")!;
  const first = page.getByTestId("result-card").first();
  await expect(first).toHaveAttribute("data-task-id", id);
  await expect(first).toHaveAttribute("data-selected", "true");
  return id;
}

/**
 * Waits until task `id` succeeded and the studio stored its result. "Done" shows as soon as the
 * service answers success; the studio's copy of the result may come a moment later, and until it
 * does the task is not offered as an earlier result (a `?from=` form would open without it).
 */
export async function resultStored(page: Page, id: string, timeout = 150_000): Promise<void> {
  await expect
    .poll(
      async () => {
        const task = (await (await page.request.get(`/api/tasks/${encodeURIComponent(id)}`)).json()) as {
          state: string;
          result?: { stored?: boolean };
        };
        return `${task.state}${task.result?.stored ? " stored" : ""}`;
      },
      { timeout, intervals: [500, 1_000, 2_000] },
    )
    .toBe("success stored");
}

/** Picks `option` of a create form's choice (a segmented control: a radio group named `group`) and checks it took. */
export async function chooseOption(page: Page, group: string, option: string): Promise<void> {
  const radio = page.getByRole("radiogroup", { name: group, exact: true }).getByRole("radio", { name: option, exact: true });
  // Again until it takes: a click before the page is hydrated does nothing.
  await expect(async () => {
    await radio.click();
    await expect(radio).toBeChecked({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

/** Opens a create form and waits until it is hydrated (its submit button, shut until then, opens). */
export async function openForm(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.locator("form").first().locator('button[type="submit"]')).toBeEnabled({ timeout: 30_000 });
}

/** Signs an existing account in through the sign-in form. */
export async function signIn(page: Page, account: Account): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("user-email")).toHaveText(account.email, { timeout: 30_000 });
}

/** The test servers' admin (ADMIN_EMAILS): signed up on first use, signed in after. */
export async function signInAsAdmin(page: Page): Promise<Account> {
  const admin = { email: ADMIN_EMAIL, password: "admin e2e password kiln" };
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Create account" }).click();
  const taken = page.getByText("An account with this email exists. Sign in instead.");
  await expect(page.getByTestId("user-email").or(taken)).toBeVisible({ timeout: 30_000 });
  if (await taken.isVisible()) await signIn(page, admin);
  return admin;
}

/**
 * The page reads every action's answer `ms` late: the network answer (which Playwright's
 * waitForResponse sees) is then well ahead of React's commit, as on a busy machine.
 */
export async function readActionAnswersLate(page: Page, ms: number) {
  await page.addInitScript((delay) => {
    const original = window.fetch;
    window.fetch = async (...args) => {
      const response = await original(...args);
      if (args[1]?.method !== "POST" || !response.body) return response;
      const body = response.body;
      const late = new ReadableStream<Uint8Array>({
        async start(controller) {
          await new Promise((resolve) => setTimeout(resolve, delay));
          const reader = body.getReader();
          for (let part = await reader.read(); !part.done; part = await reader.read()) controller.enqueue(part.value);
          controller.close();
        },
      });
      return new Response(late, { status: response.status, statusText: response.statusText, headers: response.headers });
    };
  }, ms);
}

/**
 * The page's scripts (not its styles) arrive `ms` late, so it stays server-rendered (not hydrated) that long, as
 * on a slow connection or a busy machine. Routing also turns the page's HTTP cache off.
 */
export async function hydrateLate(page: Page, ms: number) {
  const script = (url: URL) => url.pathname.startsWith("/_next/static/") && url.pathname.endsWith(".js");
  await page.route(script, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

/** Signs out through the account menu in the header: "Sign out" (this browser) or "Sign out everywhere". */
export async function signOutVia(page: Page, item: "Sign out" | "Sign out everywhere" = "Sign out") {
  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: item, exact: true }).click();
}
