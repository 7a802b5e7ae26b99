import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { createImageTask, expect as baseExpect, test } from "./fixtures";

/**
 * The result pages put the viewer first: its box's share of the screen on the task page and the
 * share page, on a desktop and a phone; the viewer's toolbar is one row of tap-sized buttons; the
 * phone never scrolls sideways; axe finds nothing on the task page in the light theme.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 240_000 });

const DESKTOP = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Share (0–1) of the viewport covered by the viewer's box, clipped to the viewport, at the top of the page. */
async function viewerShare(page: Page): Promise<number> {
  await page.evaluate(() => window.scrollTo(0, 0));
  return page.getByTestId("model-viewer").evaluate((el) => {
    const r = el.getBoundingClientRect();
    const w = Math.max(0, Math.min(r.right, window.innerWidth) - Math.max(r.left, 0));
    const h = Math.max(0, Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0));
    return (w * h) / (window.innerWidth * window.innerHeight);
  });
}

/** How far the page scrolls: sideways and down, in px beyond the viewport. */
async function overflow(page: Page): Promise<{ x: number; y: number }> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { x: root.scrollWidth - window.innerWidth, y: root.scrollHeight - window.innerHeight };
  });
}

/** The toolbar's visible buttons: one row (one top within 2 px), each at least 24 × 24 px, all inside the viewer. */
async function expectToolbarOneRow(page: Page, label: string): Promise<number> {
  const toolbar = page.getByRole("toolbar", { name: "Viewer" });
  await expect(toolbar).toBeVisible();
  const boxes = (await toolbar.locator("button").evaluateAll((buttons) =>
    buttons
      .map((b) => b.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0)
      .map((r) => ({ top: r.top, left: r.left, right: r.right, width: r.width, height: r.height })),
  )) as { top: number; left: number; right: number; width: number; height: number }[];
  expect(boxes.length, `${label}: toolbar buttons`).toBeGreaterThanOrEqual(5);
  const tops = boxes.map((b) => b.top);
  expect(Math.max(...tops) - Math.min(...tops), `${label}: one row (tops ${tops.join(", ")})`).toBeLessThanOrEqual(2);
  for (const b of boxes) {
    expect(b.width, `${label}: tap target width`).toBeGreaterThanOrEqual(24);
    expect(b.height, `${label}: tap target height`).toBeGreaterThanOrEqual(24);
  }
  const viewer = await page.getByTestId("model-viewer").boundingBox();
  expect(viewer).not.toBeNull();
  expect(Math.min(...boxes.map((b) => b.left)), `${label}: toolbar inside the viewer`).toBeGreaterThanOrEqual(viewer?.x ?? 0);
  expect(Math.max(...boxes.map((b) => b.right)), `${label}: toolbar inside the viewer`).toBeLessThanOrEqual(
    (viewer?.x ?? 0) + (viewer?.width ?? 0),
  );
  return boxes.length;
}

async function expectViewerFirst(page: Page, label: string) {
  await page.setViewportSize(DESKTOP);
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  const desktop = await viewerShare(page);
  console.log(`[layout] ${label} 1400×900: the viewer covers ${(desktop * 100).toFixed(1)}% of the screen`);
  expect(desktop, `${label} at 1400×900`).toBeGreaterThanOrEqual(0.55);
  // The page itself does not scroll on a desktop: the side panel scrolls within itself.
  expect(await overflow(page), `${label} at 1400×900`).toEqual({ x: 0, y: 0 });
  // Every tool fits in one row at this width: no "More" menu.
  expect(await expectToolbarOneRow(page, `${label} at 1400`)).toBe(9);

  await page.setViewportSize(PHONE);
  const phone = await viewerShare(page);
  console.log(`[layout] ${label} 390×844: the viewer covers ${(phone * 100).toFixed(1)}% of the screen`);
  expect(phone, `${label} at 390×844`).toBeGreaterThanOrEqual(0.45);
  expect((await overflow(page)).x, `${label} at 390: no sideways scroll`).toBeLessThanOrEqual(0);
  await expectToolbarOneRow(page, `${label} at 390`);
  // The tabs follow the viewer on a phone, not beside it.
  const viewer = await page.getByTestId("model-viewer").boundingBox();
  const tabs = await page.getByRole("tablist", { name: "Panels" }).boundingBox();
  expect((tabs?.y ?? 0) + 1, `${label} at 390: tabs under the viewer`).toBeGreaterThanOrEqual((viewer?.y ?? 0) + (viewer?.height ?? 0));
}

test("the task page and its share page are viewer first on a desktop and a phone, with a one-row toolbar", async ({
  page,
  account,
  browser,
}) => {
  void account; // signed in as a fresh user
  await createImageTask(page);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  await expect(page.getByTestId("task-state")).toHaveAttribute("data-state", "success");
  await expectViewerFirst(page, "task page");

  // The side panel folds away on a desktop, and the viewer takes its place.
  await page.setViewportSize(DESKTOP);
  const before = await viewerShare(page);
  await page.getByRole("button", { name: "Hide side panel" }).click();
  await expect(page.getByRole("tablist", { name: "Panels" })).toBeHidden();
  await expect.poll(() => viewerShare(page)).toBeGreaterThan(before + 0.15);
  await page.getByRole("button", { name: "Show side panel" }).click();
  await expect(page.getByRole("tablist", { name: "Panels" })).toBeVisible();

  await page.getByRole("tab", { name: "Share" }).click();
  await page.getByRole("button", { name: "Create share link" }).click();
  const link = await page.getByTestId("share-link").inputValue();
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(link);
  await expectViewerFirst(visitor, "share page");
  // No owner controls for a visitor.
  await expect(visitor.getByRole("tab", { name: "Share" })).toHaveCount(0);
  await expect(visitor.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await expect(visitor.getByRole("link", { name: /^Download GLB$/ })).toBeVisible();
  await visitor.context().close();
});

test("on a narrow viewer the tools that do not fit go in a More menu, still one row", async ({ page, account }) => {
  void account;
  await createImageTask(page);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  // A 300 px phone: the viewer is 300 px wide, room for six tools and the menu (lib/viewer/toolbar-fit.ts).
  await page.setViewportSize({ width: 300, height: 700 });
  expect(await expectToolbarOneRow(page, "300 px")).toBe(7);
  await expect(page.getByRole("button", { name: "Screenshot" })).toHaveCount(0);
  const more = page.getByRole("button", { name: "More viewer tools" });
  await more.click();
  await expect(page.getByRole("menuitem", { name: "Screenshot" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Record turntable" })).toBeVisible();
  // A toggle in the menu keeps its state: Auto-rotate turned on there reads as checked when the menu opens again.
  const rotate = page.getByRole("menuitemcheckbox", { name: "Auto-rotate" });
  await expect(rotate).toHaveAttribute("aria-checked", "false");
  await rotate.click();
  await expect(rotate).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toBeHidden();
  await more.click();
  await expect(page.getByRole("menuitemcheckbox", { name: "Auto-rotate" })).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Escape");
  expect((await overflow(page)).x).toBeLessThanOrEqual(0);
});

test("axe finds nothing on the task page in the light theme", async ({ page, account }) => {
  void account;
  await page.emulateMedia({ colorScheme: "light" });
  await createImageTask(page);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  await page.setViewportSize(DESKTOP);
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  await expect(page.getByTestId("printability")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  // The page is drawn in its light colours: the body's background, as the browser paints it, is bright.
  const lightness = await page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const context = canvas.getContext("2d")!;
    context.fillStyle = getComputedStyle(document.body).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data;
    return (r + g + b) / 3;
  });
  expect(lightness, "the body's background in the light theme").toBeGreaterThan(200);
  for (const tab of ["Print", "Details", "Inputs", "Share"]) {
    await page.getByRole("tab", { name: tab }).click();
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(
      violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}`).join("\n")}`),
      `axe on the task page, ${tab} tab`,
    ).toEqual([]);
  }
});
