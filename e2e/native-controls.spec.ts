import type { Locator } from "@playwright/test";
import { expect, openForm, test } from "./fixtures";

/**
 * The slider and the switch are native inputs (a range, a checkbox in the switch role): the
 * keyboard, a click on the label and the form's values come from the platform, and these pin
 * that they reach the field: the value, its words, the look, what the form holds.
 */

test.beforeEach(async ({ account }) => {
  expect(account.email).toContain("@");
});

/** The values the form holds under `name`, as the browser would submit them (every one, to catch a second). */
const formValues = (control: Locator, name: string) =>
  control.evaluate((el: HTMLInputElement, field: string) => (el.form ? new FormData(el.form).getAll(field).map(String) : []), name);

test("the face count slider moves with the arrow keys, End and Home, and reads its value out", async ({ page }) => {
  await openForm(page, "/new/image");
  const slider = page.getByRole("slider", { name: "Face count" });
  const exact = page.getByLabel("Face count (exact)");
  await expect(slider).toHaveValue("2000000");
  await expect(slider).toHaveAttribute("aria-valuetext", "2,000,000");
  await slider.focus();
  for (const [key, faces] of [
    ["ArrowRight", 2_050_000],
    ["ArrowUp", 2_100_000],
    ["ArrowLeft", 2_050_000],
    ["End", 5_000_000],
    ["ArrowDown", 4_950_000],
    ["Home", 100_000],
  ] as const) {
    await page.keyboard.press(key);
    await expect(exact, key).toHaveValue(String(faces));
    await expect(slider, key).toHaveValue(String(faces));
    await expect(slider, key).toHaveAttribute("aria-valuetext", faces.toLocaleString("en-US"));
  }
});

test("a switch flips with Space and with a click on its label, looks it, and the form holds its wire value", async ({ page }) => {
  await openForm(page, "/new/image");
  const pbr = page.getByRole("switch", { name: "PBR materials" });
  const label = page.locator("label", { hasText: /^PBR materials$/ });
  const thumb = page.locator('[data-slot="switch"]', { has: pbr }).locator('[data-slot="switch-thumb"]');
  /** The thumb's offset from the pill's left edge: 2 px off, 18 px on (it slides 16 px). */
  const offset = async () => {
    const [t, p] = await Promise.all([thumb.boundingBox(), pbr.boundingBox()]);
    return t && p ? Math.round(t.x - p.x) : Number.NaN;
  };
  const colour = () => pbr.evaluate((el) => getComputedStyle(el).backgroundColor);
  await expect(pbr).toBeChecked();
  await expect.poll(offset).toBe(18);
  const on = await colour();
  expect(await formValues(pbr, "pbr")).toEqual(["1"]);

  await pbr.focus();
  await page.keyboard.press("Space");
  await expect(pbr).not.toBeChecked();
  await expect.poll(offset).toBe(2);
  await expect.poll(colour).not.toBe(on);
  expect(await formValues(pbr, "pbr")).toEqual(["0"]);

  await label.click();
  await expect(pbr).toBeChecked();
  await expect.poll(offset).toBe(18);
  expect(await formValues(pbr, "pbr")).toEqual(["1"]);
  await label.click();
  await expect(pbr).not.toBeChecked();
  expect(await formValues(pbr, "pbr")).toEqual(["0"]);
});
