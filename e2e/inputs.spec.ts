import type { Browser, Page } from "@playwright/test";
import { chooseOption, createImageTask, expect, fixture, openForm, signUp, test, newTaskShown, setFiles } from "./fixtures";

/** Every image in the inputs section has loaded with pixels. */
async function expectImagesLoaded(page: Page, count: number) {
  const images = page.getByTestId("task-inputs").getByRole("img");
  await expect(images).toHaveCount(count);
  for (let i = 0; i < count; i++) {
    await expect
      .poll(() => images.nth(i).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 })
      .toBeGreaterThan(0);
  }
}

/** File routes' headers, errors included: never sniffed, sandboxed like the result's. */
function expectFileHeaders(headers: Record<string, string>, what: string) {
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["content-security-policy"], what).toContain("default-src 'none'");
  expect(headers["content-security-policy"], what).toContain("sandbox");
}

async function expectDone(page: Page) {
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 120_000 });
  await expect(page.getByRole("link", { name: /^Download / })).toBeVisible({ timeout: 30_000 });
}

async function anonymousPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test("a two-view task shows its front and left images, on its page and behind its share link only", async ({ page, account, browser }) => {
  test.setTimeout(240_000);
  expect(account.email).toContain("@");
  await openForm(page, "/new/image");
  await chooseOption(page, "Input", "Several views");
  await setFiles(page.getByTestId("slot-front-input"), fixture("robot.png"));
  await setFiles(page.getByTestId("slot-left-input"), fixture("teapot.png"));
  await expect(page.getByTestId("view-bits")).toHaveText("Views: 1010", { timeout: 20_000 });
  await expect(page.getByTestId("slot-left").getByText("Uploaded")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("slot-front").getByText("Uploaded")).toBeVisible({ timeout: 20_000 });
  await chooseOption(page, "Model", "v1.5");
  await chooseOption(page, "Resolution", "512");
  await page.getByRole("button", { name: "Create 3D model" }).click();
  await page.goto(`/tasks/${await newTaskShown(page)}`);
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");

  // Beside the result, while it runs already (the Inputs tab): the two views, labelled, with their file names.
  await page.getByRole("tab", { name: "Inputs" }).click();
  const inputs = page.getByTestId("task-inputs");
  await expect(inputs.getByTestId("input-label")).toHaveText(["front", "left"]);
  await expect(inputs.getByTestId("input-name")).toHaveText(["robot.png", "teapot.png"]);
  await expect(inputs.getByRole("img", { name: "Input: front" })).toBeVisible();
  await expect(inputs.getByRole("img", { name: "Input: left" })).toBeVisible();
  await expectImagesLoaded(page, 2);
  // The left view is the teapot's bytes, not the robot's.
  const robot = await page.request.get(`/api/files/${id}/inputs/0`);
  const teapot = await page.request.get(`/api/files/${id}/inputs/1`);
  expect(robot.headers()["content-type"]).toBe("image/png");
  expectFileHeaders(robot.headers(), "owner's input");
  expect((await teapot.body()).length).not.toBe((await robot.body()).length);
  expect((await page.request.get(`/api/files/${id}/inputs/2`)).status()).toBe(404);

  await expectDone(page);
  await page.getByRole("tab", { name: "Share" }).click();
  await page.getByRole("button", { name: "Create share link" }).click();
  const link = await page.getByTestId("share-link").inputValue();
  const token = new URL(link).pathname.split("/").pop() ?? "";

  // Anyone with the link sees the same views, without signing in.
  const visitor = await anonymousPage(browser);
  await visitor.goto(new URL(link).pathname);
  await visitor.getByRole("tab", { name: "Inputs" }).click();
  await expect(visitor.getByTestId("task-inputs").getByTestId("input-label")).toHaveText(["front", "left"]);
  await expectImagesLoaded(visitor, 2);
  // The images come through the share token, never under the task's id.
  expect(await visitor.content()).not.toContain(id);
  for (const [route, status] of [
    [`/api/share/${token}/files/inputs/1`, 200],
    [`/api/share/${token}/files/inputs/9`, 404],
    [`/api/share/${token}/files/inputs/x`, 404],
    [`/api/share/${"A".repeat(43)}/files/inputs/0`, 404],
  ] as const) {
    const response = await visitor.request.get(route);
    expect(response.status(), route).toBe(status);
    expectFileHeaders(response.headers(), route);
  }
  // Without the link, the owner's file route does not serve them.
  expect((await visitor.request.get(`/api/files/${id}/inputs/0`)).status()).toBe(404);

  // Another user gets nothing of them either.
  const intruder = await anonymousPage(browser);
  await signUp(intruder);
  expect((await intruder.request.get(`/api/files/${id}/inputs/0`)).status()).toBe(404);
  expect((await intruder.goto(`/tasks/${id}`))?.status()).toBe(404);

  // Revoked: the share's input routes stop serving too.
  await page.getByRole("button", { name: "Revoke link" }).click();
  await expect(page.getByRole("button", { name: "Create share link" })).toBeVisible();
  expect((await visitor.request.get(`/api/share/${token}/files/inputs/0`)).status()).toBe(404);
});

test("texture it: the form starts with the result and the image it was made from", async ({ page, account }) => {
  test.setTimeout(180_000);
  expect(account.email).toContain("@");
  const id = await createImageTask(page, { image: fixture("chair.png") });
  await page.getByRole("tab", { name: "Inputs" }).click();
  await expect(page.getByTestId("task-inputs").getByTestId("input-name")).toHaveText(["chair.png"]);
  await expect(page.getByTestId("task-inputs").getByTestId("input-name")).toBeVisible();
  await expectDone(page);
  await page.getByRole("button", { name: "Use this result" }).click();
  await page.getByRole("menuitem", { name: "Texture it" }).click();
  await page.waitForURL(/\/new\/texture\?from=/);
  await expect(page.locator('input[name="mesh_task"]')).toHaveValue(id);
  const thumbnail = page.getByTestId("image-drop").getByRole("img", { name: "chair.png" });
  await expect(thumbnail).toBeVisible();
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(page.locator('input[name="images"]')).not.toHaveValue("");

  // Submitted as it is, the texture task shows both inputs: the image and the earlier result with its cover.
  await chooseOption(page, "Model", "v1.5");
  await page.getByRole("button", { name: "Texture the model" }).click();
  await page.goto(`/tasks/${await newTaskShown(page)}`);
  await page.getByRole("tab", { name: "Inputs" }).click();
  const inputs = page.getByTestId("task-inputs");
  await expect(inputs.getByTestId("input-label")).toHaveText(["image", "mesh to texture"]);
  await expect(inputs.getByTestId("input-name")).toHaveText(["chair.png", "an earlier image-to-3d result (GLB)"]);
  await expect(inputs.getByRole("link", { name: "an earlier image-to-3d result (GLB)" })).toHaveAttribute("href", `/tasks/${id}`);
  await expectImagesLoaded(page, 2);
});
