import type { Page } from "@playwright/test";
import { createImageTask, expect as baseExpect, test } from "./fixtures";

// The studio's file routes answer like a static file server: byte ranges, validators, and
// never a body gzipped on the fly. `page.request` shares the page's cookies (the session).
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 180_000 });

/** What a browser sends; a route that let Next compress would answer with Content-Encoding. */
const GZIP = { "Accept-Encoding": "gzip, deflate, br" };

/** Submits a cheap image-to-3D task (v1.5, 512, GLB) through the form and waits until it is done. */
async function finishedTask(page: Page): Promise<string> {
  const id = await createImageTask(page);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  await expect(page.getByRole("link", { name: /^Download GLB$/ })).toBeVisible({ timeout: 30_000 });
  return id;
}

/** GET, Range, If-None-Match and HEAD on one file route; returns its ETag. */
async function expectStaticFile(page: Page, route: string, cacheControl: string): Promise<string> {
  const full = await page.request.get(route, { headers: GZIP });
  expect(full.status(), route).toBe(200);
  const body = await full.body();
  const headers = full.headers();
  expect(body.length, route).toBeGreaterThan(12);
  expect(headers["content-encoding"], route).toBeUndefined();
  expect(headers["content-length"], route).toBe(String(body.length));
  expect(headers["accept-ranges"], route).toBe("bytes");
  expect(headers["cache-control"], route).toBe(`${cacheControl}, no-transform`);
  expect(headers["x-content-type-options"], route).toBe("nosniff");
  expect(headers["last-modified"], route).toBeTruthy();
  const etag = headers["etag"]!;
  expect(etag, route).toMatch(/^"[0-9a-f]+-[0-9a-f]+-[0-9a-f]+"$/);

  const part = await page.request.get(route, { headers: { ...GZIP, Range: "bytes=4-11" } });
  expect(part.status(), route).toBe(206);
  expect(part.headers()["content-range"], route).toBe(`bytes 4-11/${body.length}`);
  expect(part.headers()["content-length"], route).toBe("8");
  expect(part.headers()["content-encoding"], route).toBeUndefined();
  expect((await part.body()).equals(body.subarray(4, 12)), route).toBe(true);

  const again = await page.request.get(route, { headers: { ...GZIP, "If-None-Match": etag } });
  expect(again.status(), route).toBe(304);
  expect(again.headers()["etag"], route).toBe(etag);
  expect((await again.body()).length, route).toBe(0);

  const head = await page.request.head(route, { headers: GZIP });
  expect(head.status(), route).toBe(200);
  expect(head.headers()["content-length"], route).toBe(String(body.length));
  expect(head.headers()["etag"], route).toBe(etag);
  return etag;
}

test("owner and share file routes serve ranges and validators, uncompressed; a revoked share's file is 404", async ({ page, account }) => {
  void account;
  const id = await finishedTask(page);
  await page.getByRole("tab", { name: "Share" }).click();
  await page.getByRole("button", { name: "Create share link" }).click();
  const token = (await page.getByTestId("share-link").inputValue()).split("/").pop()!;

  const owner = "private, max-age=86400, immutable";
  const resultTag = await expectStaticFile(page, `/api/files/${id}/result`, owner);
  await expectStaticFile(page, `/api/files/${id}/cover`, owner);
  const shared = `/api/share/${token}/files/result`;
  // The same stored file: the share answers with the owner's ETag, under its own shorter policy.
  expect(await expectStaticFile(page, shared, "private, max-age=300")).toBe(resultTag);

  await page.getByRole("button", { name: "Revoke link" }).click();
  await expect(page.getByRole("button", { name: "Create share link" })).toBeVisible();
  expect((await page.request.get(shared)).status()).toBe(404);
  // A browser revalidating its copy after max-age learns the link is gone, not "not modified".
  expect((await page.request.get(shared, { headers: { "If-None-Match": resultTag } })).status()).toBe(404);
  // The owner's route is unaffected by the revocation.
  expect((await page.request.get(`/api/files/${id}/result`, { headers: { "If-None-Match": resultTag } })).status()).toBe(304);
});
