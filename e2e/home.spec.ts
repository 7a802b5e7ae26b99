import { expect, test } from "@playwright/test";

test("the home page lists the embedded service's endpoints", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "x3d studio" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "/open-api/v1/submit-task" })).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(10);
});
