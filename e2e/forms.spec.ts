import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { chooseOption, expect, fixture, hydrateLate, openForm, signUp, test, newTaskShown, resultStored, setFiles } from "./fixtures";

/** Drops a file on an element the way a browser does: dragenter, dragover, drop with a DataTransfer. */
async function dropFile(page: Page, target: Locator, file: string, name: string, type = "image/png") {
  const base64 = fs.readFileSync(file).toString("base64");
  const dataTransfer = await page.evaluateHandle(
    ({ base64, name, type }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type }));
      return dt;
    },
    { base64, name, type },
  );
  for (const event of ["dragenter", "dragover", "drop"]) await target.dispatchEvent(event, { dataTransfer });
}

const zone = (page: Page, testId: string) => page.getByTestId(testId).getByRole("button", { name: /drop a file/ });

async function expectUploaded(page: Page, testId: string) {
  const area = page.getByTestId(testId);
  await expect(area.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  await expect(area.getByText("Uploaded")).toBeVisible();
}

/** The options of a choice (a segmented control) by their labels, in order (a card's detail line left out). */
const choiceLabels = (page: Page, group: string) =>
  page.getByRole("radiogroup", { name: group, exact: true }).locator('[data-slot="segment-label"]');
const radio = (page: Page, group: string, option: string) =>
  page.getByRole("radiogroup", { name: group, exact: true }).getByRole("radio", { name: option, exact: true });

// Every test starts signed in as a fresh account (the fixture signs up through the UI).
test.beforeEach(async ({ account }) => {
  expect(account.email).toContain("@");
});

test("image to 3D: drop an image, the form follows the model, see the cost, submit", async ({ page }) => {
  await page.goto("/new/image");
  await dropFile(page, zone(page, "image-drop"), fixture("chair.png"), "chair.png");
  await expectUploaded(page, "image-drop");
  const thumbnail = page.getByTestId("image-drop").getByRole("img", { name: "chair.png" });
  await expect(thumbnail).toBeVisible();
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  const resolution = choiceLabels(page, "Resolution");
  const face = page.getByLabel("Face count (exact)");
  const pbr = page.getByRole("switch", { name: "PBR materials" });
  const shading = page.getByRole("slider", { name: "De-shading strength" });
  // De-shading is among the folded options.
  await page.getByTestId("more-options").locator("summary").click();
  // v3.0 by default: its resolutions, pbr and shading.
  await expect(radio(page, "Model", "v3.0")).toBeChecked();
  await expect(resolution).toHaveText(["2048quality", "2048master"]);
  await expect(pbr).toBeVisible();
  await expect(shading).toBeVisible();
  await expect(page.getByTestId("task-cost")).toHaveText("90 credits");

  await chooseOption(page, "Model", "v1.5");
  await expect(resolution).toHaveText(["512", "1024", "1536", "1536pro"]);
  await expect(pbr).toHaveCount(0);
  await expect(shading).toHaveCount(0);
  await expect(face).toHaveValue("2000000");
  await chooseOption(page, "Resolution", "512");
  await expect(face).toHaveValue("500000");
  await expect(page.getByTestId("task-cost")).toHaveText("15 credits");

  await chooseOption(page, "Model", "v2.0");
  await expect(resolution).toHaveText(["1536", "1536pro"]);
  await expect(pbr).toBeVisible();
  await chooseOption(page, "Make", "Geometry only");
  await expect(pbr).toHaveCount(0);
  await expect(shading).toBeVisible();

  // A face count out of range is said as it is typed.
  await face.fill("50");
  await expect(page.getByText("The face count must be a whole number from 100,000 to 5,000,000.")).toBeVisible();
  await face.fill("300000");
  await expect(page.getByText("The face count must be a whole number")).toHaveCount(0);

  await chooseOption(page, "Model", "v1.5");
  await chooseOption(page, "Resolution", "512");
  await expect(page.getByTestId("task-cost")).toHaveText("5 credits");
  await expect(page.getByTestId("balance-short")).toHaveCount(0);
  await page.getByRole("button", { name: "Create 3D model" }).click();
  const id = await newTaskShown(page);

  // "Run again" opens the form with the same options and the same image.
  await page.goto(`/new/image?again=${id}`);
  await expect(radio(page, "Model", "v1.5")).toBeChecked();
  await expect(radio(page, "Resolution", "512")).toBeChecked();
  await expect(radio(page, "Make", "Geometry only")).toBeChecked();
  await expect(page.getByTestId("image-drop").getByRole("img", { name: "chair.png" })).toBeVisible();
});

test("multi-view: fill front and left, swap a slot, submit in slot order", async ({ page }) => {
  await openForm(page, "/new/image");
  await chooseOption(page, "Input", "Several views");
  await expect(page.getByTestId("view-bits")).toHaveText("Views: 0000");
  await setFiles(page.getByTestId("slot-front-input"), fixture("robot.png"));
  await dropFile(page, zone(page, "slot-left"), fixture("teapot.png"), "teapot.png");
  await expectUploaded(page, "slot-front");
  await expectUploaded(page, "slot-left");
  await expect(page.getByTestId("view-bits")).toHaveText("Views: 1010");

  // Drag the left view onto the empty back slot: it moves.
  await page.getByTestId("slot-left-filled").dragTo(page.getByTestId("slot-back"));
  await expect(page.getByTestId("view-bits")).toHaveText("Views: 1100");
  await expect(page.getByTestId("slot-back").getByRole("img", { name: "teapot.png" })).toBeVisible();
  // And back again.
  await page.getByTestId("slot-back-filled").dragTo(page.getByTestId("slot-left"));
  await expect(page.getByTestId("view-bits")).toHaveText("Views: 1010");

  // Front is required.
  await page.getByRole("button", { name: "Remove front" }).click();
  await expect(page.getByTestId("view-bits")).toHaveText("Views: 0010");
  await chooseOption(page, "Model", "v1.5");
  await chooseOption(page, "Resolution", "512");
  await page.getByRole("button", { name: "Create 3D model" }).click();
  await expect(page.getByText("The front view is required.")).toBeVisible();
  await expect(page).toHaveURL(/\/new\/image$/);

  await setFiles(page.getByTestId("slot-front-input"), fixture("robot.png"));
  await expectUploaded(page, "slot-front");
  await expect(page.getByText("The front view is required.")).toHaveCount(0);
  await expect(page.getByTestId("view-bits")).toHaveText("Views: 1010");
  await page.getByRole("button", { name: "Create 3D model" }).click();
  await newTaskShown(page);
});

test("a wrong-type or too-large file is refused in words before any upload", async ({ page }) => {
  const uploads: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/uploads") && r.method() === "POST") uploads.push(r.url());
  });
  await page.goto("/new/image");
  const input = page.getByTestId("image-drop-input");
  await setFiles(input, { name: "notes.png", mimeType: "image/png", buffer: Buffer.from("these are my notes, not a picture") });
  await expect(page.getByText("notes.png is not a PNG, JPEG or WebP image.")).toBeVisible();

  const big = Buffer.alloc(21 * 1024 * 1024);
  fs.readFileSync(fixture("chair.png")).copy(big, 0, 0, 64);
  await setFiles(input, { name: "big.png", mimeType: "image/png", buffer: big });
  await expect(page.getByText("big.png is 21 MB: images may be at most 20 MB.")).toBeVisible();
  expect(uploads).toEqual([]);

  // The route refuses the same on its own, as JSON naming the field.
  const refused = await page.request.post("/api/uploads?kind=image", {
    // As the studio's pages send it: the route refuses other origins (e2e/security.spec.ts).
    headers: { Origin: new URL(page.url()).origin },
    multipart: { file: { name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not a picture") } },
  });
  expect(refused.status()).toBe(415);
  expect(await refused.json()).toEqual({ error: "notes.png is not a PNG, JPEG or WebP image.", field: "file" });
});

test("uploads are private: another account gets 404", async ({ page, browser }) => {
  const uploaded = await page.request.post("/api/uploads?kind=image", {
    // As the studio's pages send it: the route refuses other origins (e2e/security.spec.ts).
    headers: { Origin: new URL(page.url()).origin },
    multipart: { file: { name: "chair.png", mimeType: "image/png", buffer: fs.readFileSync(fixture("chair.png")) } },
  });
  expect(uploaded.status()).toBe(201);
  const { id, kind, type } = (await uploaded.json()) as { id: string; kind: string; type: string };
  expect([kind, type]).toEqual(["image", "png"]);
  expect((await page.request.get(`/api/uploads/${id}`)).headers()["content-type"]).toBe("image/png");

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signUp(otherPage);
  expect((await otherPage.request.get(`/api/uploads/${id}`)).status()).toBe(404);
  await other.close();
});

test("depth, split and texture forms show only the fields that apply", async ({ page }) => {
  await openForm(page, "/new/depth");
  const strength = page.getByRole("slider", { name: "Background removal strength" });
  const baseShape = page.getByRole("radiogroup", { name: "Base shape" });
  await expect(strength).toBeVisible();
  await expect(baseShape).toHaveCount(0);
  await page.getByRole("switch", { name: "Remove background" }).click();
  await expect(strength).toHaveCount(0);
  await expect(baseShape).toBeVisible();
  await page.getByLabel("Base thickness (mm, exact)").fill("0.25");
  await expect(page.getByText("Base thickness must be from 0.1 to 20.0 mm in steps of 0.1.")).toBeVisible();
  await expect(page.getByTestId("task-cost")).toHaveText("20 credits");

  await openForm(page, "/new/split");
  const parts = page.getByRole("radiogroup", { name: "Parts" });
  const merge = page.getByRole("switch", { name: "Merge connectors with the body" });
  await expect(parts).toBeVisible();
  await expect(merge).toBeVisible();
  await chooseOption(page, "Joints", "None");
  await expect(merge).toHaveCount(0);
  await chooseOption(page, "Split as", "General object");
  await expect(parts).toHaveCount(0);
  await expect(page.getByRole("radiogroup", { name: "Level of detail" })).toBeVisible();

  await openForm(page, "/new/texture");
  // Models that cannot texture are shown, shut, with the reason.
  await expect(radio(page, "Model", "v2.0")).toBeDisabled();
  await expect(radio(page, "Model", "v2.0")).toHaveAccessibleDescription("Cannot texture");
  await expect(radio(page, "Model", "v1.5")).toBeEnabled();
  await expect(page.getByRole("slider", { name: "Face count" })).toHaveCount(0);
  await expect(page.getByLabel("Face count (exact)")).toHaveCount(0);
  await setFiles(page.getByTestId("mesh-drop-input"), fixture("chair.png"));
  await expect(page.getByText("chair.png is not a GLB model (it is a PNG image).")).toBeVisible();
});

test("segmentation look-up of an unknown task id says so, also when asked before the page's scripts ran", async ({ page }) => {
  // The browser sent the form itself when the button was pressed before hydration: the page
  // came back with the id in its address and no answer.
  await hydrateLate(page, 1500);
  await page.goto("/new/segmentation", { waitUntil: "commit" });
  await page.getByLabel("Task id").fill("segmentation_00000000_unknown");
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByText("No such task.")).toBeVisible();
  await expect(page).toHaveURL(/\/new\/segmentation$/);
});

test("paste an image while the pointer is over the drop zone", async ({ page }) => {
  await page.goto("/new/depth");
  await page.getByTestId("image-drop").hover();
  const base64 = fs.readFileSync(fixture("teapot.png")).toString("base64");
  await page.evaluate((base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const clipboardData = new DataTransfer();
    clipboardData.items.add(new File([bytes], "pasted.png", { type: "image/png" }));
    window.dispatchEvent(new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true }));
  }, base64);
  await expectUploaded(page, "image-drop");
  await expect(page.getByTestId("image-drop").getByRole("img", { name: "pasted.png" })).toBeVisible();
});

test("split, depth and texture tasks from an earlier result (?from=) run to success", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/new/image");
  await setFiles(page.getByTestId("image-drop-input"), fixture("chair.png"));
  await expectUploaded(page, "image-drop");
  await chooseOption(page, "Model", "v1.5");
  await chooseOption(page, "Resolution", "512");
  await chooseOption(page, "Make", "Geometry only");
  await page.getByRole("button", { name: "Create 3D model" }).click();
  const id = await newTaskShown(page);
  await resultStored(page, id);

  const derived: string[] = [];
  const created = async () => {
    const derivedId = await newTaskShown(page);
    expect(derivedId).not.toBe(id);
    derived.push(derivedId);
  };

  await page.goto(`/new/split?from=${id}`);
  await expect(radio(page, "3D model", "Earlier result")).toBeChecked();
  await expect(page.locator('input[name="mesh_task"]')).toHaveValue(id);
  await expect(page.getByRole("combobox", { name: "Result" })).toHaveText(/^Image to 3D · GLB · /);
  await page.getByRole("button", { name: "Split the model" }).click();
  await created();

  await page.goto(`/new/depth?from=${id}`);
  await expect(radio(page, "Image", "Earlier result")).toBeChecked();
  await page.getByRole("button", { name: "Make the depth map" }).click();
  await created();

  await page.goto(`/new/texture?from=${id}`);
  await expect(page.locator('input[name="mesh_task"]')).toHaveValue(id);
  await setFiles(page.getByTestId("image-drop-input"), fixture("chair.png"));
  await expectUploaded(page, "image-drop");
  await chooseOption(page, "Model", "v1.5");
  await page.getByRole("button", { name: "Texture the model" }).click();
  await created();

  // All three run to success on the embedded service.
  for (const derivedId of derived) {
    await expect
      .poll(async () => ((await (await page.request.get(`/api/tasks/${derivedId}`)).json()) as { state: string }).state, {
        timeout: 120_000,
        intervals: [2_000],
      })
      .toBe("success");
  }

  // Someone else's result is not offered.
  await page.goto(`/new/texture?from=not-a-task-of-mine`);
  await expect(page.getByText("That result cannot be used here")).toBeVisible();
});
