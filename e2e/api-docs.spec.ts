import { expect, test } from "@playwright/test";

// The API reference is public, drawn from the same specs that validate requests, and makes no
// request to another origin.
test("the API reference lists every endpoint and its fields without signing in or leaving the site", async ({ page, baseURL }) => {
  const origins = new Set<string>();
  page.on("request", (request) => origins.add(new URL(request.url()).origin));
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("x3d Open API reference");
  for (const path of ["/submit-task", "/split/create-task", "/depth/create-task", "/segmentation/create-task"]) {
    await expect(page.getByRole("heading", { name: `POST /open-api/v1${path}` })).toBeVisible();
  }
  const face = page.getByRole("table", { name: "Fields of /submit-task" }).getByRole("row", { name: /^face/ });
  await expect(face).toContainText("whole number, 100000 to 5000000");
  await expect(face).toContainText("10031002");
  const joint = page.getByRole("table", { name: "Fields of /split/create-task" }).getByRole("row", { name: /^joint/ });
  await expect(joint).toContainText("none (None), ball (Ball), dovetail (Dovetail), pin (Pin)");
  await expect(page.getByRole("table", { name: "Error codes" }).getByRole("row", { name: /^10031017/ })).toContainText(
    "model does not support texture",
  );
  expect([...origins]).toEqual([new URL(baseURL ?? "").origin]);

  const document = await page.request.get("/open-api/v1/openapi.json");
  expect(document.status()).toBe(200);
  const json = (await document.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(json.openapi).toBe("3.1.0");
  expect(Object.keys(json.paths)).toContain("/depth/create-task");
});
