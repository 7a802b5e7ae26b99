import { expect, test } from "@playwright/test";
import { livePort } from "../playwright.config";
import { chooseOption, drawnShare, fixture, signUp, newTaskShown, setFiles } from "./fixtures";

// This studio runs with X3D_ENGINE=off and X3D_BASE_URL pointing at the other test server:
// the same flows, against a remote service.
test.use({ baseURL: `http://127.0.0.1:${livePort}` });

test("with X3D_BASE_URL set, the studio creates and shows tasks through the remote service", async ({ page, request }) => {
  test.setTimeout(150_000);
  expect((await request.get("/open-api/v1/balance")).status()).toBe(404);
  await signUp(page);
  await expect(page.getByTestId("balance")).toHaveText(/^\d+ credits$/);
  await page.goto("/new/image");
  await setFiles(page.getByTestId("image-drop").locator('input[type="file"]'), fixture("teapot.png"));
  await expect(page.locator('input[name="images"]')).not.toHaveValue("", { timeout: 20_000 });
  await chooseOption(page, "Model", "v1.5");
  await chooseOption(page, "Resolution", "512");
  await page.getByRole("button", { name: "Create 3D model" }).click();
  await page.goto(`/tasks/${await newTaskShown(page)}`);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  await expect.poll(() => drawnShare(page), { timeout: 30_000 }).toBeGreaterThan(0.03);
});
