import AxeBuilder from "@axe-core/playwright";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "@playwright/test";
import { createImageTask, expect as baseExpect, fixture, signUp, test, setFiles } from "./fixtures";

/**
 * The home page as the artist's gallery: a new account's samples, the drop zone that opens the
 * image-to-3D workspace with its upload, and the grid of covers with its filters, at a wide
 * and a phone width, checked by axe in both themes.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 240_000 });

const SAMPLES = path.resolve(import.meta.dirname, "../public/samples");

/** Waits for the image-to-3D workspace opened on an upload; returns the upload's id. */
async function landedOnUpload(page: Page): Promise<string> {
  await page.waitForURL(/\/new\/image\?upload=[^&]+$/, { timeout: 30_000 });
  const id = new URL(page.url()).searchParams.get("upload");
  if (!id) throw new Error(`no upload id in ${page.url()}`);
  return id;
}

/** The upload is this account's, holding exactly `file`'s bytes; another account cannot see it. */
async function expectOwnUpload(page: Page, browser: Browser, id: string, file: string) {
  const own = await page.request.get(`/api/uploads/${id}`);
  expect(own.status()).toBe(200);
  expect(own.headers()["content-type"]).toBe("image/png");
  expect(Buffer.compare(await own.body(), fs.readFileSync(file))).toBe(0);
  const other = await (await browser.newContext()).newPage();
  await signUp(other);
  expect((await other.request.get(`/api/uploads/${id}`)).status()).toBe(404);
  await other.context().close();
}

/** How many columns the cards sit in: their distinct left edges. */
async function columns(cards: Locator): Promise<number> {
  const lefts = await cards.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().left)));
  return new Set(lefts).size;
}

/** Every axe violation on the page, any impact, named with its rule and targets. */
async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("a new account starts from a sample: it is uploaded as theirs and opens the image-to-3D workspace", async ({
  page,
  account,
  browser,
}) => {
  expect(account.email).toContain("@");
  await page.goto("/");
  const empty = page.getByTestId("history-empty");
  await expect(empty).toContainText("No tasks yet");
  const samples = empty.getByTestId("sample");
  await expect(samples).toHaveCount(4);
  // Each sample's picture is there, not a broken image.
  for (const img of await samples.locator("img").all()) {
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  }
  // Nothing to filter yet: the home page leaves the filters out.
  await expect(page.getByRole("radiogroup", { name: "Kind" })).toHaveCount(0);

  await page.getByRole("button", { name: "Make a 3D model of the teapot sample" }).click();
  const id = await landedOnUpload(page);
  await expectOwnUpload(page, browser, id, path.join(SAMPLES, "teapot.png"));
});

test("an image dropped or pasted on the home page is uploaded and opens the workspace; a wrong file is refused in words", async ({
  page,
  account,
  browser,
}) => {
  expect(account.email).toContain("@");
  await page.goto("/");
  const zone = page.getByTestId("home-drop");
  await expect(zone).toHaveAttribute("data-ready", "true");
  await expect(zone.getByRole("button", { name: /^Image to 3D: drop an image, click to choose, or paste\./ })).toBeVisible();

  // Not an image: the upload check's own sentence, and the page stays.
  await setFiles(page.getByTestId("home-drop-input"), { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") });
  await expect(zone.getByRole("alert")).toHaveText("notes.txt is not a PNG, JPEG or WebP image.");
  await expect(page).toHaveURL(/\/$/);

  // The upload's answer held back a moment: the zone shows its progress meanwhile.
  await page.route("**/api/uploads?kind=image", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await setFiles(page.getByTestId("home-drop-input"), fixture("chair.png"));
  await expect(zone.getByRole("progressbar", { name: "Uploading chair.png" })).toBeVisible();
  const dropped = await landedOnUpload(page);
  await page.unrouteAll();
  await expectOwnUpload(page, browser, dropped, fixture("chair.png"));

  // Pasted anywhere on the page (no field has the focus).
  await page.goto("/");
  await expect(zone).toHaveAttribute("data-ready", "true");
  await page.evaluate(async () => {
    const bytes = await (await fetch("/samples/robot.png")).blob();
    const data = new DataTransfer();
    data.items.add(new File([bytes], "robot.png", { type: "image/png" }));
    document.body.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true }));
  });
  const pasted = await landedOnUpload(page);
  expect(pasted).not.toBe(dropped);
  expect((await page.request.get(`/api/uploads/${pasted}`)).status()).toBe(200);
});

test("results show as a grid of covers, filtered by kind, five across on a wide screen and two on a phone", async ({
  page,
  account,
  browser,
}) => {
  expect(account.email).toContain("@");
  await page.setViewportSize({ width: 1400, height: 900 });
  const id = await createImageTask(page);
  // Straight home: the card follows the task to done and shows its cover without a reload.
  await page.goto("/");
  const cards = page.getByTestId("task-row");
  await expect(cards).toHaveCount(1);
  const card = cards.filter({ has: page.locator(`a[href="/tasks/${id}"]`) });
  await expect(card.getByTestId("state-badge")).toHaveText("Done", { timeout: 90_000 });
  const cover = card.locator(`img[src="/api/files/${id}/cover"]`);
  await expect(cover).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await expect(card.getByRole("link", { name: "Image to 3D" })).toHaveAttribute("href", `/tasks/${id}`);
  await expect(card.locator("time")).toHaveText(/^(now|\d+ minutes? ago)$/);

  // The kind filter, in the address.
  const kinds = page.getByRole("radiogroup", { name: "Kind" });
  await kinds.getByRole("radio", { name: "Texture", exact: true }).click();
  await expect(page).toHaveURL(/\/\?kind=texture$/);
  await expect(cards).toHaveCount(0);
  await expect(page.getByTestId("history-empty")).toContainText("No tasks match");
  await kinds.getByRole("radio", { name: "Image to 3D", exact: true }).click();
  await expect(page).toHaveURL(/\/\?kind=image-to-3d$/);
  await expect(cards).toHaveCount(1);
  await expect(kinds.getByRole("radio", { name: "Image to 3D", exact: true })).toBeChecked();

  // Axe finds nothing on the gallery with a result, in the light theme and the dark one.
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ colorScheme, storageState: await page.context().storageState() });
    const themed = await context.newPage();
    await themed.goto("/");
    await expect(themed.getByTestId("task-row")).toHaveCount(1);
    await themed.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined);
    expect(await axeViolations(themed), `axe on home, ${colorScheme} theme`).toEqual([]);
    await context.close();
  }

  // Four more (their cards show at once, running): five across at 1400 px.
  for (const image of ["chair.png", "teapot.png", "police_woman.png", "robot.png"]) await createImageTask(page, { image: fixture(image) });
  await page.goto("/");
  await expect(cards).toHaveCount(5);
  expect(await columns(cards)).toBeGreaterThanOrEqual(4);

  // A phone: two across, nothing wider than the screen, every control on a card a big enough target.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expect(cards).toHaveCount(5);
  expect(await columns(cards)).toBe(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  const first = cards.first();
  const targets = [
    first.getByRole("link", { name: "Image to 3D" }),
    first.getByRole("link", { name: "Run again" }),
    first.getByRole("button", { name: /^Delete the Image to 3D task of / }),
  ];
  // The compare box's target is the chip around it (its label), on the finished task's card.
  targets.push(cards.getByRole("checkbox", { name: "Select to compare" }).first().locator("xpath=.."));
  for (const target of targets) {
    const box = await target.boundingBox();
    expect(box && Math.min(box.width, box.height), `${target}`).toBeGreaterThanOrEqual(24);
  }
});

test("a new account's home passes axe in the light theme", async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: "light" });
  const page = await context.newPage();
  await signUp(page);
  await page.goto("/");
  await expect(page.getByTestId("sample")).toHaveCount(4);
  await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined);
  expect(await axeViolations(page), "axe on a new account's home").toEqual([]);
  await context.close();
});
