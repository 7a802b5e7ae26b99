import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { expect, newAccount, signIn, signUp, test } from "./fixtures";

/**
 * The account page (/account): its sessions, signing one out, changing the password (which ends
 * the other sessions), the theme, and axe in the light theme.
 */

test.describe.configure({ timeout: 120_000 });

const NEW_PASSWORD = "quarry lantern oboe mosaic";

const sessions = (page: Page) => page.getByTestId("session");

/** `below`'s top edge sits just under `above`'s bottom edge, left-aligned with it: it reads as that field's message. */
async function expectRightBelow(above: Locator, below: Locator) {
  const a = (await above.boundingBox())!;
  const b = (await below.boundingBox())!;
  expect(b.y - (a.y + a.height)).toBeGreaterThanOrEqual(0);
  expect(b.y - (a.y + a.height)).toBeLessThanOrEqual(12);
  expect(Math.abs(b.x - a.x)).toBeLessThanOrEqual(1);
}

test("sessions of the account: sign one out, change the password, and only the new password signs in", async ({ browser }) => {
  const first = await browser.newContext();
  const second = await browser.newContext();
  const here = await first.newPage();
  const there = await second.newPage();
  const account = await signUp(here, newAccount());
  await signIn(there, account);

  // Two sessions, this browser's first and marked.
  await here.goto("/account");
  await expect(here).toHaveTitle("Account · x3d studio");
  await expect(sessions(here)).toHaveCount(2);
  await expect(sessions(here).getByTestId("session-device")).toHaveText(["Chrome on Linux", "Chrome on Linux"]);
  await expect(sessions(here).nth(0).getByTestId("this-browser")).toHaveText("This browser");
  await expect(sessions(here).nth(1).getByTestId("this-browser")).toHaveCount(0);
  // The type scale holds beside a colour (cn once dropped text-caption next to a Badge's tone).
  const fontSize = (locator: Locator) => locator.evaluate((el) => getComputedStyle(el).fontSize);
  expect(await fontSize(sessions(here).nth(0).getByTestId("this-browser"))).toBe("12px");
  expect(await fontSize(here.locator('[data-slot="card-description"]').first())).toBe("14px");
  await expect(sessions(here).nth(1)).toContainText(/last seen/);
  await expect(here.getByRole("button", { name: "Sign out of this browser" })).toBeVisible();

  // Signing the other one out ends it at once: its next navigation lands on sign-in.
  await here.getByRole("button", { name: "Sign out Chrome on Linux" }).click();
  await expect(sessions(here)).toHaveCount(1);
  await expect(sessions(here).getByTestId("this-browser")).toBeVisible();
  await expect(here.getByTestId("toast")).toContainText("Signed out Chrome on Linux");
  await there.goto("/tasks");
  await expect(there).toHaveURL(/\/sign-in/);
  // This browser is still signed in.
  await here.reload();
  await expect(here.getByTestId("user-email")).toHaveText(account.email);

  await signIn(there, account);
  await here.reload();
  await expect(sessions(here)).toHaveCount(2);

  // A wrong current password: refused next to its field, which gets the focus; nothing changes.
  const current = here.getByLabel("Current password");
  await current.fill("not my password");
  await here.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await here.getByLabel("Confirm new password").fill(NEW_PASSWORD);
  await here.getByRole("button", { name: "Change password" }).click();
  const error = here.getByTestId("currentPassword-error");
  await expect(error).toHaveText("This is not your current password.");
  await expect(current).toHaveAttribute("aria-invalid", "true");
  await expect(current).toBeFocused();
  await expectRightBelow(current, error);
  await expect(here.getByRole("status").filter({ hasText: "Password changed" })).toHaveCount(0);
  await expect(sessions(here)).toHaveCount(2);

  // The right one: changed, and the other browser is signed out.
  await current.fill(account.password);
  await here.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await here.getByLabel("Confirm new password").fill(NEW_PASSWORD);
  await here.getByRole("button", { name: "Change password" }).click();
  await expect(here.getByText("Password changed")).toBeVisible({ timeout: 20_000 });
  await expect(error).toHaveCount(0);
  await expect(sessions(here)).toHaveCount(1);
  await expect(sessions(here).getByTestId("this-browser")).toBeVisible();
  await there.goto("/tasks");
  await expect(there).toHaveURL(/\/sign-in/);
  await here.goto("/tasks");
  await expect(here.getByTestId("user-email")).toHaveText(account.email);

  // Only the new password signs in.
  await there.getByLabel("Email").fill(account.email);
  await there.getByLabel("Password").fill(account.password);
  await there.getByRole("button", { name: "Sign in" }).click();
  await expect(there.getByTestId("form-error")).toHaveText("Wrong email or password.");
  await signIn(there, { email: account.email, password: NEW_PASSWORD });

  await first.close();
  await second.close();
});

test("the theme switch applies Light at once and keeps it; axe finds nothing on the page in the light theme", async ({ page, account }) => {
  void account;
  await page.goto("/account");
  const light = page.getByRole("radiogroup", { name: "Theme" }).getByRole("radio", { name: "Light" });
  await expect(page.getByRole("radiogroup", { name: "Theme" }).getByRole("radio", { name: "System" })).toBeChecked();
  await light.click();
  await expect(page.locator("html")).toHaveClass(/(^|\s)light(\s|$)/);
  await expect(page.locator("html")).not.toHaveClass(/(^|\s)dark(\s|$)/);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/(^|\s)light(\s|$)/);
  await expect(light).toBeChecked();
  // The light theme is drawn: the page's background is light.
  // (The computed colour is in oklch: a canvas turns it into sRGB.)
  const [r = 0, g = 0, b = 0] = await page.evaluate(() => {
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.fillStyle = getComputedStyle(document.body).backgroundColor;
    ctx.fillRect(0, 0, 1, 1);
    return Array.from(ctx.getImageData(0, 0, 1, 1).data);
  });
  expect((r + g + b) / 3).toBeGreaterThan(200);

  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.help} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});

test("on a phone (390 × 844) the page fits without sideways scrolling and every control is at least 24 px", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signUp(page);
  await page.goto("/account");
  await expect(sessions(page)).toHaveCount(1);
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  const controls = page.locator("main").locator("button, input:not([type=hidden]):not([hidden]), [role=radio], a");
  const boxes = await controls.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return {
        name: el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.tagName,
        width: r.width,
        height: r.height,
        right: r.right,
      };
    }),
  );
  expect(boxes.length).toBeGreaterThanOrEqual(8);
  for (const box of boxes) {
    expect(box.height, `${box.name} height`).toBeGreaterThanOrEqual(24);
    expect(box.width, `${box.name} width`).toBeGreaterThanOrEqual(24);
    expect(box.right, `${box.name} right edge`).toBeLessThanOrEqual(390);
  }
  await context.close();
});
