import type { Locator, Page } from "@playwright/test";
import { createImageTask, expect, fixture, signUp, test } from "./fixtures";

test.describe.configure({ timeout: 240_000 });

async function finishedTask(page: Page, image: string, faces: number): Promise<{ id: string; triangles: string }> {
  const id = await createImageTask(page, { image: fixture(image), faces });
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 120_000 });
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  const stats = (await page.getByTestId("viewer-stats").textContent()) ?? "";
  const triangles = /^([\d,]+) triangles/.exec(stats)?.[1];
  if (!triangles) throw new Error(`no triangle count in "${stats}"`);
  return { id, triangles };
}

/** A canvas's pixels as a data URL (the viewers keep their drawing buffer). */
const pixels = (canvas: Locator) => canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL());

/**
 * Which viewer the user sees in a band of the swipe stage on either side of its middle (left:
 * 30–47 % of its width, right: 53–70 %, where the models are): the stage's screenshot compared with each canvas's own picture, band by band.
 */
async function bandSources(page: Page): Promise<{ left: string; right: string }> {
  const shot = (await page.getByTestId("compare-stage").screenshot()).toString("base64");
  return page.evaluate(async (png) => {
    const stage = document.querySelector<HTMLElement>("[data-testid=compare-stage]");
    const a = document.querySelector<HTMLCanvasElement>("[data-testid=compare-canvas-a]");
    const b = document.querySelector<HTMLCanvasElement>("[data-testid=compare-canvas-b]");
    if (!stage || !a || !b) throw new Error("compare stage not found");
    const image = new Image();
    image.src = `data:image/png;base64,${png}`;
    await image.decode();
    const { width, height } = image;
    const read = (source: CanvasImageSource) => {
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext("2d");
      if (!ctx) throw new Error("no 2d context");
      // The two canvases fill the stage exactly in swipe mode: drawn at its size they line up with the screenshot.
      ctx.drawImage(source, 0, 0, width, height);
      return ctx.getImageData(0, 0, width, height).data;
    };
    const [seen, fromA, fromB] = [read(image), read(a), read(b)];
    const source = (x0: number, x1: number) => {
      let da = 0;
      let db = 0;
      for (let y = Math.floor(height * 0.15); y < height * 0.85; y++) {
        for (let x = Math.floor(width * x0); x < width * x1; x++) {
          const i = (y * width + x) * 4;
          for (let k = 0; k < 3; k++) {
            da += Math.abs((seen[i + k] ?? 0) - (fromA[i + k] ?? 0));
            db += Math.abs((seen[i + k] ?? 0) - (fromB[i + k] ?? 0));
          }
        }
      }
      // Clearly one of them: the other differs at least twice as much (and visibly).
      if (db > 2 * da + 1000) return "A";
      if (da > 2 * db + 1000) return "B";
      return `unclear (${da} vs ${db})`;
    };
    return { left: source(0.3, 0.47), right: source(0.53, 0.7) };
  }, shot);
}

async function dragDividerTo(page: Page, fraction: number) {
  const stage = await page.getByTestId("compare-stage").boundingBox();
  const divider = await page.getByTestId("compare-divider").boundingBox();
  if (!stage || !divider) throw new Error("no stage or divider");
  await page.mouse.move(divider.x + divider.width / 2, divider.y + divider.height / 2);
  await page.mouse.down();
  await page.mouse.move(stage.x + stage.width * fraction, divider.y + divider.height / 2, { steps: 8 });
  await page.mouse.up();
}

test("two results compare side by side with one camera, in swipe mode, with their stats and differing options", async ({
  page,
  account,
  browser,
}) => {
  expect(account.email).toContain("@");
  const a = await finishedTask(page, "chair.png", 100_000);
  const b = await finishedTask(page, "teapot.png", 200_000);

  // "Compare with…" on B's page lists A.
  await page.getByRole("link", { name: "Compare with…" }).click();
  await page.waitForURL(/\/compare\?t=/);
  await page.getByTestId("compare-choice").getByRole("link", { name: "Image to 3D" }).first().click();
  await page.waitForURL(`/compare?t=${b.id}&t=${a.id}`);

  // Nothing ticked in the history: the compare page's own picker.
  await page.goto("/tasks");
  await page.getByRole("button", { name: "Compare selected" }).click();
  await page.waitForURL(/\/compare\?$|\/compare$/);
  await expect(page.getByTestId("compare-choice")).toHaveCount(2);

  // Tick both in the history.
  await page.goto("/tasks");
  const row = (id: string) => page.getByTestId("task-row").filter({ has: page.locator(`a[href="/tasks/${id}"]`) });
  await row(a.id).getByRole("checkbox", { name: "Select to compare" }).check();
  await row(b.id).getByRole("checkbox", { name: "Select to compare" }).check();
  await page.getByRole("button", { name: "Compare selected" }).click();
  await page.waitForURL(/\/compare\?t=/);
  expect(new URL(page.url()).searchParams.getAll("t").sort()).toEqual([a.id, b.id].sort());
  // The picker lists newest first: B is the left one unless ticked otherwise; read which is which from the header.
  const viewer = page.getByTestId("compare-viewer");
  await expect(viewer).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  const canvasA = page.getByTestId("compare-canvas-a");
  const canvasB = page.getByTestId("compare-canvas-b");
  await expect(canvasA).toBeVisible();
  await expect(canvasB).toBeVisible();

  // Both tasks' triangle counts, as each task page's viewer showed them, and the options that differ.
  const [first, second] = new URL(page.url()).searchParams.getAll("t");
  const byId = new Map([
    [a.id, a],
    [b.id, b],
  ]);
  const triangles = page.locator("[data-testid=compare-row][data-row=Triangles] td");
  await expect(triangles).toHaveText([byId.get(first ?? "")?.triangles ?? "?", byId.get(second ?? "")?.triangles ?? "?"]);
  await expect(page.locator("[data-testid=compare-row][data-row=Vertices] td")).toHaveText([/^[\d,]+$/, /^[\d,]+$/]);
  await expect(page.locator("[data-testid=compare-row][data-row='Textures (as shown)'] td")).toHaveText([/^\d+×\d+/, /^\d+×\d+/]);
  await expect(page.locator("[data-testid=compare-row][data-row='File size'] td")).toHaveText([/ (KB|MB) GLB$/, / (KB|MB) GLB$/]);
  const faces = page.getByTestId("compare-option").filter({ hasText: "Faces" });
  await expect(faces).toHaveCount(1);
  await expect(faces.locator("td")).toHaveText(first === a.id ? ["100,000", "200,000"] : ["200,000", "100,000"]);
  await expect(page.getByTestId("compare-option").filter({ hasText: "Model" })).toHaveCount(0);

  // One camera: orbiting the left viewer turns the right one too.
  const before = await pixels(canvasB);
  const boxA = await canvasA.boundingBox();
  if (!boxA) throw new Error("no canvas A");
  await page.mouse.move(boxA.x + boxA.width / 2, boxA.y + boxA.height / 2);
  await page.mouse.down();
  await page.mouse.move(boxA.x + boxA.width / 2 + 120, boxA.y + boxA.height / 2 + 30, { steps: 6 });
  await page.mouse.up();
  await expect.poll(() => pixels(canvasB), { timeout: 10_000 }).not.toBe(before);

  // Swipe: one view, A left of the divider and B right of it; dragging the divider moves the border.
  await page.getByRole("button", { name: "Swipe" }).click();
  await expect(viewer).toHaveAttribute("data-mode", "swipe");
  await expect(page.getByTestId("compare-divider")).toHaveAttribute("aria-valuenow", "50");
  await expect.poll(() => bandSources(page), { timeout: 10_000 }).toEqual({ left: "A", right: "B" });
  await dragDividerTo(page, 0.95);
  await expect.poll(() => bandSources(page), { timeout: 10_000 }).toEqual({ left: "A", right: "A" });
  await dragDividerTo(page, 0.05);
  await expect.poll(() => bandSources(page), { timeout: 10_000 }).toEqual({ left: "B", right: "B" });

  // Another user: both ids, or one of them next to their own task, are not found.
  const intruder = await (await browser.newContext()).newPage();
  await signUp(intruder);
  expect((await intruder.goto(`/compare?t=${a.id}&t=${b.id}`))?.status()).toBe(404);
  expect((await intruder.goto(`/compare?t=${a.id}`))?.status()).toBe(404);
  // Nor does naming one of their own tasks beside it: both must be theirs.
  const own = await createImageTask(intruder, { image: fixture("robot.png") });
  expect((await intruder.goto(`/compare?t=${own}&t=${a.id}`))?.status()).toBe(404);
  expect((await intruder.goto(`/compare?t=${a.id}&t=${own}`))?.status()).toBe(404);
  // Their own task alone opens the picker, which offers none of the owner's results.
  expect((await intruder.goto(`/compare?t=${own}`))?.status()).toBe(200);
  await expect(intruder.locator(`a[href*="${a.id}"], a[href*="${b.id}"]`)).toHaveCount(0);
});
