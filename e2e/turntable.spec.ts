import fs from "node:fs";
import { createImageTask, drawnShare, expect as baseExpect, test } from "./fixtures";
import { changeFrom, keepSettledPixels } from "./viewer-pixels";

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 180_000 });

test("auto-rotate turns the model over time; Record turntable saves a 6-second WebM", async ({ page, account }) => {
  void account;
  await createImageTask(page);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  await expect.poll(() => drawnShare(page), { timeout: 30_000 }).toBeGreaterThan(0.03);
  await keepSettledPixels(page, "still");

  // Left alone, the picture stays; with auto-rotate it keeps changing.
  await page.waitForTimeout(1000);
  expect(await changeFrom(page, "still")).toBeLessThan(0.001);
  const autoRotate = page.getByRole("button", { name: "Auto-rotate" });
  await autoRotate.click();
  await expect(autoRotate).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => changeFrom(page, "still", "turned"), { timeout: 15_000 }).toBeGreaterThan(0.01);
  await expect.poll(() => changeFrom(page, "turned", "turned-more"), { timeout: 15_000 }).toBeGreaterThan(0.005);
  await autoRotate.click();
  await expect(autoRotate).toHaveAttribute("aria-pressed", "false");
  await keepSettledPixels(page, "stopped");
  await page.waitForTimeout(1000);
  expect(await changeFrom(page, "stopped")).toBeLessThan(0.001);

  // Recording: the button counts down, then a WebM (EBML header) of some size downloads.
  const started = Date.now();
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 30_000 }),
    page.getByRole("button", { name: "Record turntable" }).click(),
  ]);
  const took = Date.now() - started;
  expect(took).toBeGreaterThan(5_500);
  expect(download.suggestedFilename()).toMatch(/-turntable\.webm$/);
  const file = await download.path();
  const bytes = fs.readFileSync(file);
  expect(bytes.length).toBeGreaterThan(1_000);
  expect(bytes.subarray(0, 4).toString("hex")).toBe("1a45dfa3");
  await expect(page.getByRole("button", { name: "Record turntable" })).toBeEnabled();
  await expect(page.getByText(/could not be recorded/)).toHaveCount(0);
});
