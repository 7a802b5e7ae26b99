import type { Locator, Page } from "@playwright/test";
import { chooseOption, expect, openForm, test } from "./fixtures";
import { drawnSlider } from "./slider-pixels";

/**
 * The create forms' option fields: the face count's slider, its mark and its exact input; every
 * field set from the keyboard alone; and the wire values the forms submit (yes/no options as
 * the selects they replace sent them: 1 and 0, yes and no).
 */

// Every test starts signed in as a fresh account (the fixture signs up through the UI).
test.beforeEach(async ({ account }) => {
  expect(account.email).toContain("@");
});

const FACES = { min: 100_000, max: 5_000_000 };
/** The slider thumb's width (size-5): its centre travels from half a thumb in to half a thumb short of the end. */
const THUMB = 20;

/** The fields of the create form's server action as the browser sent them (React prefixes each name with its part's id: `_1_pbr`). */
async function submitted(page: Page, submit: () => Promise<void>): Promise<Record<string, string>> {
  const sent = page.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined);
  await submit();
  const request = await sent;
  const body = request.postDataBuffer() ?? Buffer.alloc(0);
  const form = await new Response(new Uint8Array(body), {
    headers: { "content-type": request.headers()["content-type"] ?? "" },
  }).formData();
  const fields: Record<string, string> = {};
  form.forEach((value, key) => {
    if (typeof value === "string" && /^_\d+_/.test(key)) fields[key.replace(/^_\d+_/, "")] = value;
  });
  await expect(page.getByRole("button", { name: /^Starting/ })).toHaveCount(0, { timeout: 30_000 });
  return fields;
}

/** Presses Tab (Shift+Tab when `back`) until `target` has focus, at most 60 times. */
async function tabTo(page: Page, target: Locator, back = false): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  await expect(target).toBeFocused();
}

const radio = (page: Page, group: string, option: string) =>
  page.getByRole("radiogroup", { name: group, exact: true }).getByRole("radio", { name: option, exact: true });
const checkedIn = (page: Page, group: string) =>
  page.getByRole("radiogroup", { name: group, exact: true }).getByRole("radio", { checked: true });

/**
 * Presses `key` on the focused radio group and checks the choice moved to `option`, focus with it.
 * A quick tap (keyup at once after keydown) must choose too, not only move focus.
 */
async function arrowTo(page: Page, key: "ArrowLeft" | "ArrowRight", group: string, option: string): Promise<void> {
  await page.keyboard.press(key);
  await expect(radio(page, group, option)).toBeChecked();
  await expect(radio(page, group, option)).toBeFocused();
}

test("the face count slider marks each resolution's recommended count, and agrees with the exact input both ways", async ({ page }) => {
  await openForm(page, "/new/image");
  await chooseOption(page, "Model", "v1.5");
  const slider = page.getByRole("slider", { name: "Face count" });
  const exact = page.getByLabel("Face count (exact)");
  const root = page.locator('[data-slot="slider"]', { has: slider });
  const track = root.locator('[data-slot="slider-track"]');
  const range = root.locator('[data-slot="slider-range"]');
  const mark = root.getByTestId("slider-mark");

  const centres: number[] = [];
  for (const [resolution, recommended] of [
    ["512", 500_000],
    ["1536", 2_000_000],
  ] as const) {
    await chooseOption(page, "Resolution", resolution);
    // The face count snaps to the resolution's recommendation, on the slider and in the input.
    await expect(exact).toHaveValue(String(recommended));
    await expect(slider).toHaveAttribute("aria-valuenow", String(recommended));
    await expect(mark).toHaveAttribute("title", `Recommended for ${resolution}: ${recommended.toLocaleString("en-US")}`);
    const [t, m, fill, drawn] = await Promise.all([track.boundingBox(), mark.boundingBox(), range.boundingBox(), drawnSlider(root)]);
    if (!t || !m || !fill) throw new Error("the slider is not laid out");
    const share = (recommended - FACES.min) / (FACES.max - FACES.min);
    const at = m.x + m.width / 2 - t.x;
    // Along the track at the value's share of its width (within the half thumb the thumb is kept inside by)...
    expect(Math.abs(at / t.width - share) * t.width).toBeLessThanOrEqual(THUMB / 2 + 1);
    // ...exactly where the thumb's centre is at that value: the thumb, as drawn, sits on the mark.
    expect(at).toBeCloseTo(THUMB / 2 + share * (t.width - THUMB), 0);
    expect(Math.abs(drawn.thumb - (m.x + m.width / 2))).toBeLessThanOrEqual(1);
    // The mark, as drawn, shows above the thumb, centred on it.
    expect(Math.abs((drawn.mark ?? Number.NaN) - drawn.thumb)).toBeLessThanOrEqual(1);
    // The filled track ends under the thumb's centre.
    expect(Math.abs(fill.x + fill.width - drawn.thumb)).toBeLessThanOrEqual(1);
    centres.push(at);
  }
  // 2,000,000 sits 1,500,000 faces (30.6% of the range) right of 500,000.
  const width = (await track.boundingBox())?.width ?? 0;
  expect((centres[1] ?? 0) - (centres[0] ?? 0)).toBeCloseTo((1_500_000 / (FACES.max - FACES.min)) * (width - THUMB), 0);

  // Typed: the slider follows.
  await exact.fill("1234567");
  await expect(slider).toHaveAttribute("aria-valuenow", "1234567");
  await expect(slider).toHaveAttribute("aria-valuetext", "1,234,567");
  // Slid: the input follows, to the next step of 50,000.
  await slider.focus();
  await page.keyboard.press("ArrowRight");
  await expect(slider).toHaveAttribute("aria-valuenow", "1250000");
  await expect(exact).toHaveValue("1250000");
  await page.keyboard.press("End");
  await expect(exact).toHaveValue(String(FACES.max));
  await page.keyboard.press("Home");
  await expect(exact).toHaveValue(String(FACES.min));
  // A click halfway along the track: halfway through the range, to the slider's step.
  const t = await track.boundingBox();
  if (!t) throw new Error("the slider is not laid out");
  await page.mouse.click(t.x + t.width / 2, t.y + t.height / 2);
  await expect(exact).toHaveValue("2550000");
  await expect(slider).toHaveAttribute("aria-valuenow", "2550000");
  // Back to the recommendation in one press.
  await page.getByRole("button", { name: "Use 2,000,000" }).click();
  await expect(exact).toHaveValue("2000000");
  await expect(slider).toHaveAttribute("aria-valuenow", "2000000");
  await expect(page.getByRole("button", { name: "Use 2,000,000" })).toHaveCount(0);
  // Out of range as typed: the same sentence as before, the thumb held at the end.
  await exact.fill("9000000");
  await expect(page.getByText("The face count must be a whole number from 100,000 to 5,000,000.")).toBeVisible();
  await expect(slider).toHaveAttribute("aria-valuenow", String(FACES.max));
});

test("a keyboard-only artist sets every image-to-3D field; pbr and rmbg are sent as 1 and 0, as the selects sent them", async ({
  page,
}) => {
  await openForm(page, "/new/image");
  // The defaults, as they were sent before: pbr and rmbg on (1), shading 0.5, GLB (2).
  const defaults = await submitted(page, () => page.getByRole("button", { name: "Create 3D model" }).click());
  expect(defaults).toMatchObject({
    mode: "single",
    model: "x3dv3.0",
    resolution: "2048quality",
    face: "2000000",
    request_type: "3",
    pbr: "1",
    format: "2",
    rmbg: "1",
    shading: "0.5",
  });
  // No image yet: refused, and said at the drop zone.
  await expect(page.getByTestId("image-drop").getByRole("alert")).toBeVisible();

  // Input: arrows move between one image and several views.
  await tabTo(page, radio(page, "Input", "One image"));
  await arrowTo(page, "ArrowRight", "Input", "Several views");
  await arrowTo(page, "ArrowLeft", "Input", "One image");
  // Model: from v3.0 back to v2.0 (v1.5, v2.0, v2.1, v3.0, …).
  await tabTo(page, checkedIn(page, "Model"));
  await arrowTo(page, "ArrowLeft", "Model", "v2.1");
  await arrowTo(page, "ArrowLeft", "Model", "v2.0");
  await expect(page.getByRole("radiogroup", { name: "Resolution" }).locator('[data-slot="segment-label"]')).toHaveText(["1536", "1536pro"]);
  // v2.1's 1536pro is kept: v2.0 offers it too.
  await expect(checkedIn(page, "Resolution")).toHaveAccessibleName("1536pro");
  await tabTo(page, checkedIn(page, "Resolution"));
  await arrowTo(page, "ArrowLeft", "Resolution", "1536");
  await expect(page.getByTestId("task-cost")).toHaveText("50 credits");
  await arrowTo(page, "ArrowRight", "Resolution", "1536pro");
  await expect(page.getByTestId("task-cost")).toHaveText("70 credits");

  // Face count: typed in the exact input, then nudged on the slider; the two agree.
  const exact = page.getByLabel("Face count (exact)");
  const slider = page.getByRole("slider", { name: "Face count" });
  await tabTo(page, exact);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("1234567");
  await expect(slider).toHaveAttribute("aria-valuenow", "1234567");
  await page.keyboard.press("Tab");
  await expect(slider).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(exact).toHaveValue("1200000");
  await expect(slider).toHaveAttribute("aria-valuenow", "1200000");

  // Make: geometry only takes PBR away; back to geometry and texture brings it back.
  const pbr = page.getByRole("switch", { name: "PBR materials" });
  await tabTo(page, checkedIn(page, "Make"));
  await arrowTo(page, "ArrowRight", "Make", "Geometry only");
  await expect(pbr).toHaveCount(0);
  await arrowTo(page, "ArrowLeft", "Make", "Geometry and texture");
  await expect(pbr).toBeChecked();
  // Space flips a switch.
  await tabTo(page, pbr);
  await page.keyboard.press("Space");
  await expect(pbr).not.toBeChecked();
  await tabTo(page, checkedIn(page, "Format"));
  await arrowTo(page, "ArrowLeft", "Format", "OBJ");

  // More options unfold with Enter.
  const more = page.getByTestId("more-options");
  await tabTo(page, more.locator("summary"));
  await page.keyboard.press("Enter");
  await expect(more).toHaveAttribute("open", "");
  const rmbg = page.getByRole("switch", { name: "Remove background" });
  await tabTo(page, rmbg);
  await page.keyboard.press("Space");
  await expect(rmbg).not.toBeChecked();
  const shading = page.getByRole("slider", { name: "De-shading strength" });
  await tabTo(page, shading);
  await page.keyboard.press("ArrowRight");
  await expect(shading).toHaveAttribute("aria-valuenow", "0.6");
  await expect(page.getByTestId("shading-value")).toHaveText("0.6");

  await tabTo(page, page.getByRole("button", { name: "Create 3D model" }));
  const chosen = await submitted(page, () => page.keyboard.press("Enter"));
  expect(chosen).toMatchObject({
    mode: "single",
    model: "x3dv2.0",
    resolution: "1536pro",
    face: "1200000",
    request_type: "3",
    pbr: "0",
    format: "1",
    rmbg: "0",
    shading: "0.6",
  });
  await expect(page).toHaveURL(/\/new\/image$/);
});

test("depth and split from the keyboard: rmbg is sent as 1 and 0, merge as yes and no, as before", async ({ page }) => {
  await openForm(page, "/new/depth");
  const submit = page.getByRole("button", { name: "Make the depth map" });
  const defaults = await submitted(page, () => submit.click());
  expect(defaults).toMatchObject({
    image_source: "upload",
    model_type: "pro",
    sculpmode: "0",
    width: "40",
    rmbg: "1",
    degree_rmbg: "0.02",
    format: "3",
  });
  expect(defaults).not.toHaveProperty("shape_base");
  expect(defaults).not.toHaveProperty("thickness_base");

  await tabTo(page, checkedIn(page, "Quality"));
  await arrowTo(page, "ArrowRight", "Quality", "Base");
  await tabTo(page, checkedIn(page, "Relief"));
  await arrowTo(page, "ArrowRight", "Relief", "Engrave");
  const width = page.getByRole("slider", { name: "Width (mm)" });
  await tabTo(page, width);
  await page.keyboard.press("ArrowRight");
  await expect(page.getByLabel("Width (mm, exact)")).toHaveValue("41");
  const rmbg = page.getByRole("switch", { name: "Remove background" });
  await tabTo(page, rmbg);
  await page.keyboard.press("Space");
  await expect(rmbg).not.toBeChecked();
  await tabTo(page, checkedIn(page, "Base shape"));
  await arrowTo(page, "ArrowRight", "Base shape", "Circle");
  const thickness = page.getByRole("slider", { name: "Base thickness (mm)" });
  await tabTo(page, thickness);
  await page.keyboard.press("ArrowRight");
  await expect(page.getByLabel("Base thickness (mm, exact)")).toHaveValue("1.1");
  await tabTo(page, checkedIn(page, "Format"));
  await arrowTo(page, "ArrowRight", "Format", "GLB");
  await tabTo(page, submit);
  const relief = await submitted(page, () => page.keyboard.press("Enter"));
  expect(relief).toMatchObject({
    model_type: "base",
    sculpmode: "1",
    width: "41",
    rmbg: "0",
    shape_base: "1",
    thickness_base: "1.1",
    format: "4",
  });
  expect(relief).not.toHaveProperty("degree_rmbg");

  await openForm(page, "/new/split");
  const split = page.getByRole("button", { name: "Split the model" });
  expect(await submitted(page, () => split.click())).toMatchObject({
    model: "character",
    part: "a",
    joint: "ball",
    merge: "yes",
    format: "2",
  });
  await tabTo(page, checkedIn(page, "Parts"));
  await arrowTo(page, "ArrowRight", "Parts", "5 parts");
  const merge = page.getByRole("switch", { name: "Merge connectors with the body" });
  await tabTo(page, merge);
  await page.keyboard.press("Space");
  await expect(merge).not.toBeChecked();
  await tabTo(page, split);
  expect(await submitted(page, () => page.keyboard.press("Enter"))).toMatchObject({ part: "b", joint: "ball", merge: "no" });
  // A general object: its level is sent, the character's fields are neither shown nor sent.
  await tabTo(page, checkedIn(page, "Split as"), true);
  await arrowTo(page, "ArrowRight", "Split as", "General object");
  await tabTo(page, checkedIn(page, "Level of detail"));
  await arrowTo(page, "ArrowRight", "Level of detail", "High");
  await tabTo(page, split);
  const general = await submitted(page, () => page.keyboard.press("Enter"));
  expect(general).toMatchObject({ model: "general", level: "high", format: "2" });
  for (const field of ["part", "joint", "merge"]) expect(general).not.toHaveProperty(field);
});
