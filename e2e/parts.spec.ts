import type { Page } from "@playwright/test";
import { chooseOption, createImageTask, drawnShare, expect as baseExpect, fixture, test, newTaskShown, resultStored } from "./fixtures";
import { changeFrom, keepSettledPixels } from "./viewer-pixels";

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 240_000 });

const SIX = ["head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"];

/** The names of the mesh nodes in a GLB's JSON chunk. */
function glbPartNames(glb: Buffer): string[] {
  const json = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString("utf8")) as { nodes?: { name?: string; mesh?: number }[] };
  return (json.nodes ?? []).filter((n) => n.mesh !== undefined).map((n) => n.name ?? "");
}

/** Waits for the task on the page to be done and its result drawn; answers its studio id. */
async function drawnResult(page: Page): Promise<string> {
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  await expect.poll(() => drawnShare(page), { timeout: 30_000 }).toBeGreaterThan(0.03);
  return decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
}

/** A character split into six parts without joints, from an image-to-3D result; on its task page. */
async function createCharacterSplit(page: Page): Promise<string> {
  const source = await createImageTask(page, { image: fixture("police_woman.png") });
  await resultStored(page, source);
  await page.goto(`/new/split?from=${source}`);
  await chooseOption(page, "Parts", "6 parts");
  await chooseOption(page, "Joints", "None");
  await page.getByRole("button", { name: "Split the model" }).click();
  await page.goto(`/tasks/${await newTaskShown(page)}`);
  return drawnResult(page);
}

test("a character split lists its parts by name; hiding, isolating, colouring and exploding change the picture, also on its share page", async ({
  page,
  account,
  browser,
}) => {
  void account; // signed in as a fresh user
  const id = await createCharacterSplit(page);
  // The list names the parts of the file the user downloads: body parts of the six-part cut
  // (a region the model has nothing in, such as arms held against the body, makes no part).
  const names = glbPartNames(await (await page.request.get(`/api/files/${id}/result`)).body());
  expect(names.length).toBeGreaterThanOrEqual(4);
  expect(SIX).toEqual(expect.arrayContaining(names));
  expect(names).toEqual(expect.arrayContaining(["head", "torso"]));
  const n = names.length;
  const list = page.getByTestId("part-list");
  await expect(list.getByTestId("part-count")).toHaveText(`${n} parts`);
  await expect(list.getByTestId("part-name")).toHaveText(names);
  const before = await drawnShare(page);
  await keepSettledPixels(page, "all");

  // Unchecking the head removes it from the picture: pixels change, fewer are drawn.
  await list.getByRole("checkbox", { name: "head" }).uncheck();
  await expect(list.getByTestId("part-count")).toHaveText(`${n} parts · ${n - 1} shown`);
  await expect.poll(() => changeFrom(page, "all"), { timeout: 15_000 }).toBeGreaterThan(0.002);
  expect(await drawnShare(page)).toBeLessThan(before);
  await list.getByRole("checkbox", { name: "head" }).check();
  await expect.poll(() => changeFrom(page, "all"), { timeout: 15_000 }).toBeLessThan(0.001);

  // Isolating the torso leaves one part checked and much less of the model drawn.
  await list.getByRole("button", { name: "Isolate torso" }).click();
  await expect(list.getByRole("checkbox", { checked: true })).toHaveCount(1);
  await expect(list.getByRole("checkbox", { name: "torso" })).toBeChecked();
  await expect(list.getByTestId("part-count")).toHaveText(`${n} parts · 1 shown`);
  await expect.poll(() => drawnShare(page), { timeout: 15_000 }).toBeLessThan(before * 0.8);
  await list.getByRole("button", { name: "Show all" }).click();
  await expect(list.getByRole("checkbox", { checked: true })).toHaveCount(n);
  await expect.poll(() => changeFrom(page, "all"), { timeout: 15_000 }).toBeLessThan(0.001);

  // Colour by part repaints the model.
  await list.getByLabel("Colour by part").check();
  await expect.poll(() => changeFrom(page, "all"), { timeout: 15_000 }).toBeGreaterThan(0.02);
  await list.getByLabel("Colour by part").uncheck();
  await expect.poll(() => changeFrom(page, "all"), { timeout: 15_000 }).toBeLessThan(0.001);

  // Exploding moves the parts apart: pixels move and the drawn area spreads.
  const explode = list.getByRole("slider", { name: "Explode" });
  await explode.fill("100");
  await expect(list.getByTestId("explode-value")).toHaveText("100%");
  await expect.poll(() => changeFrom(page, "all"), { timeout: 15_000 }).toBeGreaterThan(0.02);
  await explode.fill("0");
  await expect.poll(() => changeFrom(page, "all"), { timeout: 15_000 }).toBeLessThan(0.001);

  // The same from the keyboard: Space on a part's checkbox, arrows on the slider.
  await list.getByRole("checkbox", { name: "head" }).focus();
  await page.keyboard.press("Space");
  await expect(list.getByRole("checkbox", { name: "head" })).not.toBeChecked();
  await expect(list.getByTestId("part-count")).toHaveText(`${n} parts · ${n - 1} shown`);
  await page.keyboard.press("Space");
  await expect(list.getByTestId("part-count")).toHaveText(`${n} parts`);
  await explode.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowRight");
  await expect(list.getByTestId("explode-value")).toHaveText("20%");
  await expect.poll(() => changeFrom(page, "all"), { timeout: 15_000 }).toBeGreaterThan(0.005);
  await page.keyboard.press("Home");
  await expect(list.getByTestId("explode-value")).toHaveText("0%");
  await expect.poll(() => changeFrom(page, "all"), { timeout: 15_000 }).toBeLessThan(0.001);

  // A visitor of the share link gets the same list, and it works there too.
  await page.getByRole("tab", { name: "Share" }).click();
  await page.getByRole("button", { name: "Create share link" }).click();
  const link = await page.getByTestId("share-link").inputValue();
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(link);
  await expect(visitor.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  const shared = visitor.getByTestId("part-list");
  await expect(shared.getByTestId("part-count")).toHaveText(`${n} parts`);
  await keepSettledPixels(visitor, "all");
  await shared.getByRole("button", { name: "Isolate head" }).click();
  await expect(shared.getByTestId("part-count")).toHaveText(`${n} parts · 1 shown`);
  await expect.poll(() => changeFrom(visitor, "all"), { timeout: 15_000 }).toBeGreaterThan(0.01);
  await visitor.context().close();
});

test("a segmentation result lists its segments by name, and hiding one changes the picture", async ({ page, account }) => {
  void account;
  const source = await createImageTask(page, { image: fixture("chair.png") });
  await resultStored(page, source);
  await page.goto(`/new/segmentation?from=${source}`);
  await page.getByRole("button", { name: "Segment the model" }).click();
  await page.goto(`/tasks/${await newTaskShown(page)}`);
  const id = await drawnResult(page);
  const names = glbPartNames(await (await page.request.get(`/api/files/${id}/result`)).body());
  expect(names.length).toBeGreaterThanOrEqual(2);
  for (const name of names) expect(name).toMatch(/^segment_\d+$/);
  const list = page.getByTestId("part-list");
  await expect(list.getByTestId("part-count")).toHaveText(`${names.length} parts`);
  await expect(list.getByTestId("part-name")).toHaveText(names);
  await keepSettledPixels(page, "all");
  const first = names[0] ?? "";
  await list.getByRole("button", { name: `Isolate ${first}` }).click();
  await expect(list.getByTestId("part-count")).toHaveText(`${names.length} parts · 1 shown`);
  await expect.poll(() => changeFrom(page, "all"), { timeout: 15_000 }).toBeGreaterThan(0.002);
});
