import type { Locator, Page } from "@playwright/test";
import { createImageTask, expect as baseExpect, test } from "./fixtures";

/**
 * The task page's side-panel tabs follow the WAI-ARIA tabs pattern with automatic activation:
 * roles and links between tabs and panels, the arrow keys (wrapping), Home and End moving focus
 * and the choice together, and Tab leaving the tablist for the panel rather than the other tabs.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 240_000 });

const NAMES = ["Print", "Parts", "Details", "Inputs", "Share"];

/** `tab` has focus, is the one chosen and the one tab stop, and its panel (named by it) is the one shown. */
async function expectChosen(page: Page, tab: Locator): Promise<void> {
  await expect(tab).toBeFocused();
  await expect(tab).toHaveAttribute("aria-selected", "true");
  await expect(tab).toHaveAttribute("tabindex", "0");
  await expect(page.getByRole("tab", { selected: true })).toHaveCount(1);
  await expect(page.getByRole("tab").and(page.locator('[tabindex="0"]'))).toHaveCount(1);
  const panel = page.locator(`[id="${await tab.getAttribute("aria-controls")}"]`);
  await expect(panel).toHaveRole("tabpanel");
  await expect(panel).toHaveAccessibleName((await tab.textContent()) ?? "");
  await expect(panel).toBeVisible();
  await expect(page.getByRole("tabpanel")).toHaveCount(1); // the others are kept but hidden
}

test("the task page's tabs: roles, arrow keys with wrapping, Home and End, Tab into the panel", async ({ page, account }) => {
  void account; // signed in as a fresh user
  await createImageTask(page);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });

  const list = page.getByRole("tablist", { name: "Panels" });
  await expect(list).toHaveAttribute("aria-orientation", "horizontal");
  const tabs = list.getByRole("tab");
  await expect(tabs).toHaveText(NAMES);
  // Enabled once the page's scripts run; a finished image task opens on Print.
  for (const tab of await tabs.all()) await expect(tab).toBeEnabled();
  const tab = (name: string) => list.getByRole("tab", { name, exact: true });
  await expect(tab("Print")).toHaveAttribute("aria-selected", "true");
  for (const name of NAMES.slice(1)) {
    await expect(tab(name)).toHaveAttribute("aria-selected", "false");
    await expect(tab(name)).toHaveAttribute("tabindex", "-1");
  }

  await tab("Print").focus();
  await expectChosen(page, tab("Print"));
  await page.keyboard.press("ArrowRight");
  await expectChosen(page, tab("Parts"));
  await page.keyboard.press("ArrowLeft");
  await expectChosen(page, tab("Print"));
  // Wrapping both ways.
  await page.keyboard.press("ArrowLeft");
  await expectChosen(page, tab("Share"));
  await expect(page.getByRole("button", { name: "Create share link" })).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expectChosen(page, tab("Print"));
  await page.keyboard.press("End");
  await expectChosen(page, tab("Share"));
  await page.keyboard.press("Home");
  await expectChosen(page, tab("Print"));

  // Tab leaves the tablist: from Details it goes to the Details panel's first stop, no other tab.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expectChosen(page, tab("Details"));
  await page.keyboard.press("Tab");
  const focused = () =>
    page.evaluate(() => ({
      role: document.activeElement?.getAttribute("role"),
      inPanel: !!document.activeElement?.closest('[role="tabpanel"]'),
    }));
  const after = await focused();
  expect(after.role, "Tab from the chosen tab reached another tab").not.toBe("tab");
  expect(after.inPanel, "Tab from the chosen tab goes into the panel").toBe(true);
  // Shift+Tab comes back to the chosen tab, not the last one.
  await page.keyboard.press("Shift+Tab");
  await expectChosen(page, tab("Details"));

  // A click chooses too, and the keys go on from there.
  await tab("Inputs").click();
  await expectChosen(page, tab("Inputs"));
  await page.keyboard.press("ArrowRight");
  await expectChosen(page, tab("Share"));
});
