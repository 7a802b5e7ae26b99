import fs from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { createImageTask, drawnShare, expect as baseExpect, fixture, signUp, test } from "./fixtures";

// Pages draw a WebGL viewer while these tests click around: allow for a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

// Generation on the embedded service takes a few seconds; the whole flow gets more time.
test.describe.configure({ timeout: 180_000 });

async function expectDone(page: Page) {
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  await expect(page.getByRole("link", { name: /^Download GLB$/ })).toBeVisible({ timeout: 30_000 });
}

/** Picks a kind in the history's kind filter (a row of radio segments). */
async function kindFilter(page: Page, label: string) {
  await page.getByRole("radiogroup", { name: "Kind" }).getByRole("radio", { name: label, exact: true }).click();
}

/** Picks a state in the history's state filter (a select). */
async function stateFilter(page: Page, label: string) {
  await page.getByRole("combobox", { name: "State" }).click();
  await page.getByRole("option", { name: label, exact: true }).click();
}

/** A page in a fresh browser context: no cookies, no session. */
async function anonymousPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test("a task is watched to the end, downloaded, shared, revoked and kept from other users", async ({ page, account, browser }) => {
  const id = await createImageTask(page);

  // The timeline moves on to done, with the elapsed time (in the viewer's place while it runs, then on the Details tab).
  await expect(page.getByTestId("step-created")).toHaveAttribute("data-state", "passed");
  await expectDone(page);
  await expect(page.getByTestId("task-state")).toHaveAttribute("data-state", "success");
  await page.getByRole("tab", { name: "Details" }).click();
  await expect(page.getByTestId("step-done")).toHaveAttribute("data-state", "passed");
  await expect(page.getByTestId("step-done")).toBeVisible();
  await expect(page.getByTestId("elapsed")).toHaveText(/^Took \d+/);
  await expect(page.locator("canvas")).toBeVisible({ timeout: 30_000 });
  // The model is drawn: a good part of the canvas differs from the background.
  await expect.poll(() => drawnShare(page), { timeout: 30_000 }).toBeGreaterThan(0.03);
  await expect(page.getByTestId("viewer-stats")).toHaveText(/^[\d,]+ triangles · [\d,]+ vertices$/);
  await expect(page.getByTestId("task-cover")).toBeVisible();
  await expect(page.getByTestId("task-cover")).toHaveJSProperty("complete", true);
  expect(await page.getByTestId("task-cover").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const options = page.getByTestId("task-options");
  await expect(options).toBeVisible();
  await expect(options).toContainText("v1.5");
  await expect(options).toContainText("512");
  await expect(options).not.toContainText("callback");

  // Use this result: a menu of links to the forms.
  await page.getByRole("button", { name: "Use this result" }).click();
  await expect(page.getByRole("menuitem", { name: "Split it" })).toHaveAttribute("href", `/new/split?from=${id}`);
  await expect(page.getByRole("menuitem", { name: "Texture it" })).toHaveAttribute("href", `/new/texture?from=${id}`);
  await expect(page.getByRole("menuitem", { name: "Depth from its cover" })).toHaveAttribute("href", `/new/depth?from=${id}`);
  await page.keyboard.press("Escape");

  // Download in the format produced, named after the kind and the date.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download GLB" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^image-to-3d-\d{4}-\d{2}-\d{2}\.glb$/);
  expect(
    fs
      .readFileSync((await download.path())!)
      .subarray(0, 4)
      .toString(),
  ).toBe("glTF");

  // The history lists it with its cover; filters and "run again".
  await page.goto("/tasks");
  const row = page.getByTestId("task-row").filter({ has: page.locator(`a[href="/tasks/${id}"]`) });
  await expect(row.getByTestId("state-badge")).toHaveText("Done");
  await expect(row.locator(`img[src="/api/files/${id}/cover"]`)).toBeVisible();
  await expect(row.getByRole("link", { name: "Run again" })).toHaveAttribute("href", `/new/image?again=${id}`);
  await kindFilter(page, "Split");
  await expect(page.getByTestId("history-empty")).toBeVisible();
  await kindFilter(page, "Image to 3D");
  await stateFilter(page, "Done");
  await expect(page).toHaveURL(/kind=image-to-3d&state=success/);
  await expect(page.getByTestId("task-row")).toHaveCount(1);

  // Share: a fresh browser sees the result and the options, nothing about the owner.
  await page.goto(`/tasks/${id}`);
  await page.getByRole("tab", { name: "Share" }).click();
  await page.getByRole("button", { name: "Create share link" }).click();
  const link = await page.getByTestId("share-link").inputValue();
  expect(link).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);
  const token = link.split("/").pop()!;
  const visitor = await anonymousPage(browser);
  await visitor.goto(link);
  await expect(visitor.getByRole("heading", { name: "Image to 3D" })).toBeVisible();
  await visitor.getByRole("tab", { name: "Details" }).click();
  await expect(visitor.getByTestId("task-options")).toBeVisible();
  await expect(visitor.getByTestId("task-options")).toContainText("v1.5");
  await expect(visitor.locator("canvas")).toBeVisible({ timeout: 30_000 });
  const html = await visitor.content();
  for (const secret of [account.email, id]) expect(html).not.toContain(secret);
  const shared = await visitor.request.get(`/api/share/${token}/files/result?download=1`);
  expect(shared.status()).toBe(200);
  expect(shared.headers()["content-type"]).toBe("model/gltf-binary");
  expect(shared.headers()["content-disposition"]).toMatch(/^attachment; filename="image-to-3d-\d{4}-\d{2}-\d{2}\.glb"$/);
  expect((await shared.body()).subarray(0, 4).toString()).toBe("glTF");

  // Revoked: the page and its files are 404, also for the visitor who had it open.
  await page.getByRole("button", { name: "Revoke link" }).click();
  await expect(page.getByRole("button", { name: "Create share link" })).toBeVisible();
  expect((await visitor.goto(link))?.status()).toBe(404);
  expect((await visitor.request.get(`/api/share/${token}/files/result`)).status()).toBe(404);
  expect((await visitor.request.get(`/api/share/${token}/files/cover`)).status()).toBe(404);
  // Without a session, the owner's routes give nothing away either.
  expect((await visitor.request.get(`/api/files/${id}/result`)).status()).toBe(404);
  expect((await visitor.request.get(`/api/tasks/${id}`)).status()).toBe(401);
  await visitor.context().close();

  // A second user: the task page, its status, its files are all 404.
  const intruder = await anonymousPage(browser);
  await signUp(intruder);
  expect((await intruder.goto(`/tasks/${id}`))?.status()).toBe(404);
  expect((await intruder.request.get(`/api/tasks/${id}`)).status()).toBe(404);
  expect((await intruder.request.get(`/api/files/${id}/result`)).status()).toBe(404);
  expect((await intruder.request.get(`/api/files/${id}/cover?download=1`)).status()).toBe(404);
  await intruder.goto("/tasks");
  await expect(intruder.getByTestId("history-empty")).toContainText("No tasks yet");
  await intruder.context().close();
});

test("share actions refuse another user's task", async ({ page, account, browser }) => {
  void account;
  const victimTask = await createImageTask(page);
  await expectDone(page);

  // The intruder has a finished task of their own, and rewrites their share request to name the victim's.
  const intruder = await anonymousPage(browser);
  await signUp(intruder);
  const own = await createImageTask(intruder, { image: fixture("teapot.png") });
  await expectDone(intruder);
  await intruder.route(`**/tasks/${own}`, async (route) => {
    const request = route.request();
    if (request.method() !== "POST" || !request.headers()["next-action"]) return route.continue();
    return route.continue({ postData: (request.postData() ?? "").replaceAll(own, victimTask) });
  });
  await intruder.getByRole("tab", { name: "Share" }).click();
  await intruder.getByRole("button", { name: "Create share link" }).click();
  await expect(intruder.getByRole("alert").filter({ hasText: "Only your finished tasks can be shared." })).toBeVisible({ timeout: 15_000 });
  await expect(intruder.getByTestId("share-link")).toHaveCount(0);

  // The owner's page still offers to create the first link: nothing was shared.
  await page.reload();
  await page.getByRole("tab", { name: "Share" }).click();
  await expect(page.getByRole("button", { name: "Create share link" })).toBeVisible();
  await intruder.context().close();
});

test("a callback alone brings the task to done: nobody polls", async ({ page, account }) => {
  void account;
  const id = await createImageTask(page);
  // Leave before the task page polls even once.
  await page.goto("about:blank");
  // The history as the server renders it (no script runs here): done, with the stored cover.
  await expect
    .poll(async () => (await page.request.get("/tasks")).text(), { timeout: 90_000, intervals: [1_000] })
    .toContain(`/api/files/${id}/cover`);
  expect((await page.request.get(`/api/files/${id}/result`)).headers()["content-type"]).toBe("model/gltf-binary");
});

// Reads the service balance every studio user shares: run alone, after the rest (playwright.config.ts).
test("a failed task says why and that the credits were refunded", async ({ page, account }, testInfo) => {
  void account;
  // PNG by its first bytes (so every check lets it through), but nothing a decoder can read.
  const broken = testInfo.outputPath("broken.png");
  fs.writeFileSync(broken, Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(4096, 7)]));
  await page.goto("/tasks");
  await expect(page.getByTestId("balance")).toHaveText(/^\d+ credits$/);
  const before = await page.getByTestId("balance").textContent();

  const id = await createImageTask(page, { image: broken });
  await expect(page.getByTestId("task-state")).toHaveText("Failed", { timeout: 90_000 });
  await expect(page.getByTestId("task-state")).toHaveAttribute("data-state", "failed");
  await expect(page.getByTestId("task-failure")).toContainText("Generation failed");
  await expect(page.getByTestId("refund")).toHaveText("The 15 credits it cost were refunded to your balance.");
  // The failure stands where the viewer would be: most of the screen, not a line under a header.
  const failure = await page.getByTestId("task-failure").boundingBox();
  const viewport = page.viewportSize();
  expect(((failure?.width ?? 0) * (failure?.height ?? 0)) / ((viewport?.width ?? 1) * (viewport?.height ?? 1))).toBeGreaterThan(0.55);
  // The Details tab, open by default for a failed task, shows the steps ending in the failure.
  await expect(page.getByTestId("step-done")).toBeVisible();
  await expect(page.getByTestId("step-done")).toContainText("Failed");
  await expect(page.getByTestId("balance")).toHaveText(before!);
  await expect(page.getByRole("button", { name: "Create share link" })).toHaveCount(0);
  expect((await page.request.get(`/api/files/${id}/result`)).status()).toBe(404);

  await page.goto("/tasks?state=failed");
  await expect(page.getByTestId("task-row")).toHaveCount(1);
  await expect(page.getByTestId("state-badge")).toHaveText("Failed");
});

test.describe("task pages without tasks", () => {
  test("the history says there is nothing yet, and filters keep working", async ({ page, account }) => {
    void account;
    await page.goto("/tasks");
    await expect(page.getByRole("heading", { name: "My tasks" })).toBeVisible();
    await expect(page.getByTestId("history-empty")).toContainText("No tasks yet");
    await kindFilter(page, "Split");
    await expect(page).toHaveURL(/kind=split/);
    await expect(page.getByTestId("history-empty")).toContainText("No tasks match");
    await expect(page.getByRole("radiogroup", { name: "Kind" }).getByRole("radio", { name: "Split" })).toBeChecked();
  });

  test("unknown tasks, files and callbacks are 404", async ({ page, account }) => {
    void account;
    const res = await page.goto("/tasks/no-such-task");
    expect(res?.status()).toBe(404);
    expect((await page.request.get("/api/tasks/no-such-task")).status()).toBe(404);
    expect((await page.request.get("/api/files/no-such-task/result")).status()).toBe(404);
    expect((await page.request.post("/api/callbacks/no-such-task/secret", { data: { code: 200 } })).status()).toBe(404);
  });

  test("an unknown share link is 404 without signing in", async ({ browser }) => {
    const page = await anonymousPage(browser);
    expect((await page.goto(`/share/${"A".repeat(43)}`))?.status()).toBe(404);
    expect((await page.request.get(`/api/share/${"A".repeat(43)}/files/result`)).status()).toBe(404);
    await page.context().close();
  });

  test("the status route needs a session", async ({ request }) => {
    expect((await request.get("/api/tasks/anything")).status()).toBe(401);
    expect((await request.get("/api/files/anything/result")).status()).toBe(404);
  });
});
