import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { createImageTask, expect as baseExpect, fixture, newTaskShown, readActionAnswersLate, signUp, test } from "./fixtures";

// A create page is a workspace: form, viewer and the artist's results on one screen.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 300_000 });

const cards = (page: Page) => page.getByTestId("result-card");

/** Share of a canvas's pixels that differ from its corner colour: a model is drawn on it. */
async function drawnOn(canvas: Locator): Promise<number> {
  return canvas.evaluate((c: HTMLCanvasElement) => {
    const copy = document.createElement("canvas");
    copy.width = c.width;
    copy.height = c.height;
    const ctx = copy.getContext("2d")!;
    ctx.drawImage(c, 0, 0);
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    const [r0, g0, b0] = [data[0]!, data[1]!, data[2]!];
    let differ = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i]! - r0) + Math.abs(data[i + 1]! - g0) + Math.abs(data[i + 2]! - b0) > 24) differ++;
    }
    return differ / (data.length / 4);
  });
}

/** The part of the viewport an element covers, as a share of the viewport. */
async function screenShare(page: Page, element: Locator): Promise<number> {
  const box = await element.boundingBox();
  const size = page.viewportSize();
  if (!box || !size) throw new Error("no box or viewport");
  const width = Math.max(0, Math.min(box.x + box.width, size.width) - Math.max(box.x, 0));
  const height = Math.max(0, Math.min(box.y + box.height, size.height) - Math.max(box.y, 0));
  return (width * height) / (size.width * size.height);
}

test("from a finished result, change one option, run again and compare the two: four actions, no page load", async ({ page, account }) => {
  expect(account.email).toContain("@");
  await page.setViewportSize({ width: 1400, height: 900 });
  const first = await createImageTask(page, { faces: 100_000 });
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 120_000 });

  await page.goto("/new/image");
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toHaveAttribute("data-state", "success");
  await expect(page.getByTestId("stage-empty")).toContainText("Your model appears here");
  await expect(page.getByTestId("image-drop")).toHaveAttribute("data-ready", "true");

  // From here on: no document is loaded, and the page's own state survives.
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(request.url());
  });
  await page.evaluate(() => {
    (window as unknown as { __marker: number }).__marker = 1;
  });
  const navigations = await page.evaluate(() => performance.getEntriesByType("navigation").length);
  let actions = 0;
  const act = async (action: () => Promise<void>) => {
    actions++;
    await action();
  };

  // 1. Select the result: it is shown, and the form takes its settings and its image.
  await act(() =>
    cards(page)
      .first()
      .getByRole("button", { name: /^Show Image to 3D of / })
      .click(),
  );
  await expect(cards(page).first()).toHaveAttribute("data-selected", "true");
  await expect(page.getByTestId("task-state")).toHaveText("Done");
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  await expect(page.getByLabel("Face count (exact)")).toHaveValue("100000");
  const choice = (group: string, option: string) =>
    page.getByRole("radiogroup", { name: group, exact: true }).getByRole("radio", { name: option, exact: true });
  await expect(choice("Model", "v1.5")).toBeChecked();
  await expect(choice("Resolution", "512")).toBeChecked();
  await expect(page.getByTestId("image-drop").getByRole("img", { name: "robot.png" })).toBeVisible();
  await expect(page.locator('input[name="images"]')).not.toHaveValue("");
  expect(new URL(page.url()).searchParams.get("task")).toBe(first);

  // 2. Change one option.
  await act(() => page.getByLabel("Face count (exact)").fill("200000"));
  // 3. Create: the new task comes first in the strip and is shown, running.
  await act(() => page.getByRole("button", { name: "Create 3D model" }).click());
  const second = await newTaskShown(page, first);
  await expect(cards(page)).toHaveCount(2);
  await expect(cards(page).nth(1)).toHaveAttribute("data-task-id", first);
  const newCard = cards(page).first();
  expect(await newCard.getAttribute("data-state")).toMatch(/^(checking|created|queueing|processing)$/);
  // The form keeps what was sent: the next run starts from it.
  await expect(page.getByLabel("Face count (exact)")).toHaveValue("200000");

  // 4. Tick Compare on the first result, the new one being shown.
  await act(() =>
    cards(page)
      .nth(1)
      .getByRole("checkbox", { name: /^Compare / })
      .check(),
  );
  // The new task's state moves on by itself, to done.
  await expect(newCard).toHaveAttribute("data-state", "success", { timeout: 120_000 });
  const compare = page.getByTestId("compare-viewer");
  await expect(compare).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  for (const canvas of ["compare-canvas-a", "compare-canvas-b"]) {
    await expect.poll(() => drawnOn(page.getByTestId(canvas)), { timeout: 30_000 }).toBeGreaterThan(0.03);
  }
  // A is the older run: the one option changed is the one that differs.
  const faces = page.getByTestId("compare-option").filter({ hasText: "Faces" });
  await expect(faces.locator("td")).toHaveText(["100,000", "200,000"]);
  await expect(page.getByTestId("compare-option")).toHaveCount(1);

  expect(actions).toBe(4);
  expect(documents).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
  expect(await page.evaluate(() => performance.getEntriesByType("navigation").length)).toBe(navigations);
  console.log(`iteration loop: ${actions} actions, ${documents.length} page loads`);

  // Unticking goes back to the one result shown.
  await cards(page)
    .nth(1)
    .getByRole("checkbox", { name: /^Compare / })
    .uncheck();
  await expect(compare).toHaveCount(0);
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });

  // The address keeps the one shown: a reload shows it again, with its settings in the form.
  await page.reload();
  await expect(cards(page).first()).toHaveAttribute("data-task-id", second);
  await expect(cards(page).first()).toHaveAttribute("data-selected", "true");
  await expect(page.getByTestId("task-state")).toHaveText("Done");
  await expect(page.getByLabel("Face count (exact)")).toHaveValue("200000");
});

test("the viewer takes most of the screen, 55 % on a desktop and 45 % on a phone, with no sideways scroll", async ({ page, account }) => {
  expect(account.email).toContain("@");
  const id = await createImageTask(page);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 120_000 });

  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`/new/image?task=${id}`);
  const viewer = page.getByTestId("model-viewer");
  await expect(viewer).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  const desktop = await screenShare(page, viewer);
  expect(desktop).toBeGreaterThanOrEqual(0.55);
  // The three columns, side by side, and no page scroll: the columns scroll on their own.
  const form = await page.locator("#workspace-form").boundingBox();
  const strip = await page.getByTestId("recent-results").boundingBox();
  const box = await viewer.boundingBox();
  if (!form || !strip || !box) throw new Error("a column is missing");
  expect(form.x + form.width).toBeLessThanOrEqual(box.x + 1);
  expect(box.x + box.width).toBeLessThanOrEqual(strip.x + 1);
  expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/new/image?task=${id}`);
  await expect(viewer).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  const phone = await screenShare(page, viewer);
  expect(phone).toBeGreaterThanOrEqual(0.45);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  // Viewer first, the strip of covers under it, then the form.
  const phoneBox = await viewer.boundingBox();
  const phoneStrip = await page.getByTestId("recent-results").boundingBox();
  const phoneForm = await page.locator("#workspace-form").boundingBox();
  if (!phoneBox || !phoneStrip || !phoneForm) throw new Error("a part is missing");
  expect(phoneBox.y).toBeLessThan(phoneStrip.y);
  expect(phoneStrip.y).toBeLessThan(phoneForm.y);
  // Tap targets of at least 24 px: the card, its compare box's label, the header's links.
  const card = cards(page).first();
  const targets = [
    card.getByRole("button", { name: /^Show / }),
    card.locator("label", { has: page.getByRole("checkbox") }),
    page.getByRole("link", { name: "Open task page" }),
    page.getByRole("link", { name: /^Download / }),
  ];
  for (const target of targets) {
    const size = await target.boundingBox();
    expect(size?.width, String(target)).toBeGreaterThanOrEqual(24);
    expect(size?.height, String(target)).toBeGreaterThanOrEqual(24);
  }
  console.log(`viewer share: ${(desktop * 100).toFixed(1)} % at 1400×900, ${(phone * 100).toFixed(1)} % at 390×844`);
});

test("a refused create says why next to the field and adds no card", async ({ page, account }) => {
  expect(account.email).toContain("@");
  const before = await (await page.request.get("/api/balance")).json();
  await page.goto("/new/image");
  await expect(page.getByTestId("image-drop")).toHaveAttribute("data-ready", "true");
  await expect(cards(page)).toHaveCount(0);
  await page.getByRole("button", { name: "Create 3D model" }).click();
  // Said at the image field, which is what is missing.
  await expect(page.getByTestId("image-drop")).toContainText("Add an image first.");
  await expect(page.getByRole("button", { name: /^Image: drop a file/ })).toHaveAttribute("aria-describedby", /.+/);
  await expect(cards(page)).toHaveCount(0);
  await expect(page.getByTestId("stage-empty")).toBeVisible();
  expect(new URL(page.url()).searchParams.has("task")).toBe(false);
  expect(await (await page.request.get("/api/balance")).json()).toEqual(before);
});

test("a failed run shows its reason and its refund in the viewer's place", async ({ page, account }, testInfo) => {
  expect(account.email).toContain("@");
  // PNG by its first bytes (so every check lets it through), but nothing a decoder can read.
  const broken = testInfo.outputPath("broken.png");
  fs.writeFileSync(broken, Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(4096, 7)]));
  const id = await createImageTask(page, { image: broken });
  await expect(page.getByTestId("task-state")).toHaveText("Failed", { timeout: 90_000 });

  await page.goto(`/new/image?task=${id}`);
  await expect(page.getByTestId("task-state")).toHaveText("Failed");
  await expect(page.getByTestId("task-failure")).toContainText("Generation failed");
  await expect(page.getByTestId("refund")).toHaveText("The 15 credits it cost were refunded to your balance.");
  await expect(page.getByTestId("model-viewer")).toHaveCount(0);
  await expect(page.getByRole("link", { name: /^Download / })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Open task page" })).toHaveAttribute("href", `/tasks/${id}`);
  const card = cards(page).first();
  await expect(card).toHaveAttribute("data-state", "failed");
  await expect(card.getByTestId("cover-placeholder")).toBeVisible();
  await expect(card.locator("img")).toHaveCount(0);
});

test("?upload= opens the image form with one of the artist's own images, and with nothing of anyone else's", async ({
  page,
  account,
  browser,
}) => {
  expect(account.email).toContain("@");
  await page.goto("/new/image");
  const origin = new URL(page.url()).origin;
  const uploaded = await page.request.post("/api/uploads?kind=image", {
    headers: { Origin: origin },
    multipart: { file: { name: "chair.png", mimeType: "image/png", buffer: fs.readFileSync(fixture("chair.png")) } },
  });
  expect(uploaded.status()).toBe(201);
  const { id } = (await uploaded.json()) as { id: string };

  await page.goto(`/new/image?upload=${id}`);
  const thumbnail = page.getByTestId("image-drop").getByRole("img", { name: "chair.png" });
  await expect(thumbnail).toBeVisible();
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(page.locator('input[name="images"]')).toHaveValue(id);

  const other = await (await browser.newContext()).newPage();
  await signUp(other);
  await other.goto(`/new/image?upload=${id}`);
  await expect(other.getByText("That image is no longer available: add it again.")).toBeVisible();
  await expect(other.locator('input[name="images"]')).toHaveValue("");
  await other.context().close();
});

test("a run still being created when another result is picked joins the strip when its answer comes", async ({ page, account }) => {
  expect(account.email).toContain("@");
  const first = await createImageTask(page);
  const second = await createImageTask(page);
  await readActionAnswersLate(page, 4_000);
  await page.goto(`/new/image?task=${second}`);
  await expect(page.locator('input[name="images"]')).not.toHaveValue("");
  await expect(cards(page)).toHaveCount(2);

  await page.getByRole("button", { name: "Create 3D model" }).click();
  await expect(page.getByRole("button", { name: "Starting…" })).toBeVisible();
  // Picked while the answer is on its way: the form is filled anew from it (remounted).
  await cards(page)
    .nth(1)
    .getByRole("button", { name: /^Show / })
    .click();
  await expect(cards(page).nth(1)).toHaveAttribute("data-task-id", first);
  await expect(page.getByRole("button", { name: "Create 3D model" })).toBeEnabled();

  const created = await newTaskShown(page, first);
  expect([first, second]).not.toContain(created);
  await expect(cards(page)).toHaveCount(3);
});
