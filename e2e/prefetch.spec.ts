import type { Page, Request } from "@playwright/test";
import { expect, test } from "./fixtures";

// Every studio page is dynamic, so a prefetch is a server render. Links prefetch when the artist
// reaches for them (components/ui/link.tsx), not when they come into view: next/link's default
// sent one per link in view as a page opened, about ten from a task page while its viewer drew.

/** The router's prefetches (RSC requests marked as prefetches) the page sends from now on. */
function prefetches(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (r: Request) => {
    if (r.headers()["next-router-prefetch"]) seen.push(new URL(r.url()).pathname);
  });
  return seen;
}

test("a page prefetches no link in view; a link the pointer rests on is prefetched, and its page opens", async ({ page, account }) => {
  expect(account.email).toContain("@");
  await page.setViewportSize({ width: 1400, height: 900 });
  const seen = prefetches(page);
  await page.goto("/new/texture");
  await expect(page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Split" })).toBeVisible();
  // Next schedules in-view prefetches once the page is idle: give it that time.
  await page.waitForTimeout(3_000);
  expect(seen).toEqual([]);
  const split = page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Split" });
  await split.hover();
  await expect.poll(() => seen).toEqual(["/new/split"]);
  await split.click();
  await expect(page).toHaveURL(/\/new\/split$/);
  await expect(split).toHaveAttribute("aria-current", "page");
});
