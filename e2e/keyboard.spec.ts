import type { Locator, Page } from "@playwright/test";
import { chooseOption, createImageTask, drawnShare, expect as baseExpect, fixture, openForm, test, setFiles } from "./fixtures";
import { changeFrom, keepSettledPixels } from "./viewer-pixels";

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 180_000 });

/** Presses Tab until `target` has focus (at most `limit` times); fails otherwise. */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

/** Whether the focused element shows a focus mark: an outline or a ring (box-shadow). */
async function focusShows(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    return outline || (style.boxShadow !== "none" && style.boxShadow !== "");
  });
}

test("multi-view: Tab to the front slot and move its image to the left slot with the arrow keys", async ({ page, account }) => {
  void account;
  await openForm(page, "/new/image");
  await chooseOption(page, "Input", "Several views");
  await setFiles(page.getByTestId("slot-front-input"), fixture("robot.png"));
  await expect(page.getByTestId("slot-front").getByText("Uploaded")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("view-bits")).toHaveText("Views: 1000");

  const front = page.getByRole("button", { name: /^Front: drop a file/ });
  await tabTo(page, front);
  expect(await focusShows(front)).toBe(true);
  await page.keyboard.press("ArrowRight"); // front → back
  await expect(page.getByTestId("view-bits")).toHaveText("Views: 0100");
  const back = page.getByRole("button", { name: /^Back: drop a file/ });
  await expect(back).toBeFocused();
  await page.keyboard.press("ArrowRight"); // back → left
  await expect(page.getByTestId("view-bits")).toHaveText("Views: 0010");
  const left = page.getByRole("button", { name: /^Left: drop a file/ });
  await expect(left).toBeFocused();
  expect(await focusShows(left)).toBe(true);
  await expect(page.getByTestId("slot-left").getByRole("img", { name: "robot.png" })).toBeVisible();
  await expect(page.getByTestId("slot-front").getByRole("img")).toHaveCount(0);
  await expect(page.getByTestId("slot-front")).toContainText("Drop a file");
  await expect(page.getByTestId("view-moved")).toHaveText("Back image moved to left.");
  // ← brings it back towards the front: left → back → front.
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByTestId("view-bits")).toHaveText("Views: 1000");
  await expect(page.getByTestId("slot-front").getByRole("img", { name: "robot.png" })).toBeVisible();
});

test("the viewer works from the keyboard: orbit and zoom on the canvas, every toolbar button, auto-rotate", async ({ page, account }) => {
  void account;
  await createImageTask(page);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  await expect.poll(() => drawnShare(page), { timeout: 30_000 }).toBeGreaterThan(0.03);
  const canvas = page.getByTestId("viewer-canvas");
  await tabTo(page, canvas, 60);
  expect(await focusShows(canvas)).toBe(true);
  await keepSettledPixels(page, "start");
  const drawn = await drawnShare(page);

  // Arrows turn the model (pixels change), + zooms in (more of the canvas is model).
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
  await expect.poll(() => changeFrom(page, "start"), { timeout: 15_000 }).toBeGreaterThan(0.01);
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect.poll(() => changeFrom(page, "start"), { timeout: 15_000 }).toBeLessThan(0.01);
  for (let i = 0; i < 3; i++) await page.keyboard.press("+");
  await expect.poll(() => drawnShare(page), { timeout: 15_000 }).toBeGreaterThan(drawn * 1.3);
  for (let i = 0; i < 3; i++) await page.keyboard.press("-");
  await keepSettledPixels(page, "start");

  // The toolbar follows in the tab order; Enter and Space press its buttons.
  const wireframe = page.getByRole("button", { name: "Wireframe" });
  await page.keyboard.press("Tab");
  await expect(wireframe).toBeFocused();
  expect(await focusShows(wireframe)).toBe(true);
  await page.keyboard.press("Enter");
  await expect(wireframe).toHaveAttribute("aria-pressed", "true");
  // A dense mesh's wireframe looks much like its surface: a small but clear share of pixels changes.
  await expect.poll(() => changeFrom(page, "start"), { timeout: 15_000 }).toBeGreaterThan(0.002);
  await page.keyboard.press("Enter");
  await expect(wireframe).toHaveAttribute("aria-pressed", "false");
  await expect.poll(() => changeFrom(page, "start"), { timeout: 15_000 }).toBeLessThan(0.001);

  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Clay" })).toBeFocused();
  await page.keyboard.press("Space");
  await expect(page.getByRole("button", { name: "Clay" })).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => changeFrom(page, "start"), { timeout: 15_000 }).toBeGreaterThan(0.01);

  await page.keyboard.press("Tab");
  const background = page.getByRole("button", { name: "Background" });
  await expect(background).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(background).toHaveAttribute("data-backdrop", "light");

  // The grid and the measuring tool, enabled once full detail is measured.
  const grid = page.getByRole("button", { name: "Grid" });
  await expect(grid).toBeEnabled({ timeout: 30_000 });
  await page.keyboard.press("Tab");
  await expect(grid).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(grid).toHaveAttribute("aria-pressed", "false");
  await page.keyboard.press("Enter");
  await expect(grid).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("Tab");
  const measure = page.getByRole("button", { name: "Measure" });
  await expect(measure).toBeFocused();
  await page.keyboard.press("Space");
  await expect(measure).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("measure-distance")).toHaveText("Click two points on the model");
  await page.keyboard.press("Space");
  await expect(measure).toHaveAttribute("aria-pressed", "false");

  await page.keyboard.press("Tab");
  await expect(page.getByRole("combobox", { name: "Maps" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Screenshot" })).toBeFocused();
  const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  expect(download.suggestedFilename()).toMatch(/\.png$/);

  await page.keyboard.press("Tab");
  const autoRotate = page.getByRole("button", { name: "Auto-rotate" });
  await expect(autoRotate).toBeFocused();
  await keepSettledPixels(page, "before-turning");
  await page.keyboard.press("Enter");
  await expect(autoRotate).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => changeFrom(page, "before-turning"), { timeout: 15_000 }).toBeGreaterThan(0.01);
  await page.keyboard.press("Enter");
  await expect(autoRotate).toHaveAttribute("aria-pressed", "false");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Record turntable" })).toBeFocused();
});
