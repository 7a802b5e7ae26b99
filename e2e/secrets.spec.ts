import fs from "node:fs";
import path from "node:path";
import { CANARY_CLIENT_SECRET } from "./canary";
import { expect, test } from "./fixtures";

const ROOT = path.resolve(import.meta.dirname, "..");
/** Tokens of the embedded service start with this (a signed JSON payload). */
const TOKEN_PATTERN = /x3d\.eyJ[\w-]+\.[\w-]{20,}/;

function* files(dir: string): Generator<string> {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

test("no built client file or prerendered page holds the client secret", () => {
  let scanned = 0;
  for (const dir of [".next/static", ".next/server/app"]) {
    for (const file of files(path.join(ROOT, dir))) {
      if (!/\.(js|html|rsc|json|txt|css)$/.test(file)) continue;
      const text = fs.readFileSync(file, "utf8");
      expect(text.includes(CANARY_CLIENT_SECRET), file).toBe(false);
      expect(TOKEN_PATTERN.test(text), file).toBe(false);
      scanned++;
    }
  }
  expect(scanned).toBeGreaterThan(10);
});

test("no page or response the browser gets holds the client secret or an access token", async ({ page, account }) => {
  const leaks: string[] = [];
  page.on("response", async (res) => {
    const type = res.headers()["content-type"] ?? "";
    if (!/json|html|text|javascript|x-component/.test(type)) return;
    const body = await res.text().catch(() => "");
    if (body.includes(CANARY_CLIENT_SECRET) || TOKEN_PATTERN.test(body)) leaks.push(res.url());
  });
  expect(account.email).toContain("@");
  for (const route of ["/", "/tasks", "/new/image", "/new/texture", "/new/split", "/new/depth", "/new/segmentation"]) {
    await page.goto(route);
    await page.waitForLoadState("networkidle");
  }
  const cookies = await page.context().cookies();
  expect(cookies.some((c) => c.value.includes(CANARY_CLIENT_SECRET) || TOKEN_PATTERN.test(c.value))).toBe(false);
  expect(leaks).toEqual([]);
});
