import { createImageTask, drawnShare, expect as baseExpect, test } from "./fixtures";
import { changedShare, changeFrom, keepSettledPixels } from "./viewer-pixels";

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 180_000 });

test("maps on their own and a UV checker change the picture, and Lit brings the model back", async ({ page, account }) => {
  void account;
  await createImageTask(page); // a textured result: a base colour map over UVs
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  await expect.poll(() => drawnShare(page), { timeout: 30_000 }).toBeGreaterThan(0.03);
  await keepSettledPixels(page, "lit");
  const maps = page.getByRole("combobox", { name: "Maps" });
  await expect(maps).toHaveAttribute("data-value", "lit");
  /** Picks a map in the Maps select (a listbox of options), and checks it was taken. */
  const choose = async (label: string, value: string) => {
    await maps.click();
    await page.getByRole("option", { name: label, exact: true }).click();
    await expect(maps).toHaveAttribute("data-value", value);
    await expect(maps).toHaveAccessibleName(`Maps: ${label}`);
  };

  // Base colour alone, unlit: the texture without shading differs from the lit model.
  await choose("Base colour", "base");
  await expect.poll(() => changeFrom(page, "lit", "base"), { timeout: 15_000 }).toBeGreaterThan(0.01);

  // No normal map in this result: the flat normal colour (128, 128, 255) covers the model.
  await choose("Normal map", "normal");
  await expect.poll(() => changeFrom(page, "lit", "normal"), { timeout: 15_000 }).toBeGreaterThan(0.02);
  const bluish = await page.getByTestId("viewer-canvas").evaluate((c: HTMLCanvasElement) => {
    const copy = document.createElement("canvas");
    copy.width = c.width;
    copy.height = c.height;
    const ctx = copy.getContext("2d");
    if (!ctx) return 0;
    ctx.drawImage(c, 0, 0);
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
      if (Math.abs(r - 128) < 12 && Math.abs(g - 128) < 12 && b > 240) n++;
    }
    return n / (data.length / 4);
  });
  expect(bluish).toBeGreaterThan(0.03);

  // The UV checker over the model differs from both the lit model and its base colour.
  await choose("UV checker", "uv");
  await expect.poll(() => changeFrom(page, "lit", "uv"), { timeout: 15_000 }).toBeGreaterThan(0.02);
  expect(await changedShare(page, "base", "uv")).toBeGreaterThan(0.02);

  await choose("Lit", "lit");
  await expect.poll(() => changeFrom(page, "lit"), { timeout: 15_000 }).toBeLessThan(0.001);
});
