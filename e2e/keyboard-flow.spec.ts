import type { Locator, Page } from "@playwright/test";
import { drawnShare, expect as baseExpect, fixture, newAccount, newTaskShown, test } from "./fixtures";
import { changeFrom, keepSettledPixels } from "./viewer-pixels";

/**
 * Sign up, create an image-to-3D task, watch it finish, turn the model and share it with the
 * keyboard alone: page.keyboard only, no clicks and no fills. The file chooser is the system's
 * dialog, opened by Enter on the drop zone.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 240_000 });

/** Presses Tab (Shift+Tab when `back`) until `target` has focus, at most `limit` times; fails naming what had focus. */
async function tabTo(page: Page, target: Locator, { limit = 60, back = false } = {}): Promise<void> {
  for (let i = 0; i <= limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) {
      await expectFocusShows(target);
      return;
    }
    if (i < limit) await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  const focused = await page.evaluate(() => {
    const el = document.activeElement;
    return el ? `<${el.tagName.toLowerCase()}> "${(el.getAttribute("aria-label") ?? el.textContent ?? "").slice(0, 60)}"` : "nothing";
  });
  throw new Error(`${limit} presses of ${back ? "Shift+Tab" : "Tab"} did not reach ${target}; focus is on ${focused}`);
}

/** The focused element shows it: an outline or a ring (box-shadow). */
async function expectFocusShows(target: Locator): Promise<void> {
  const mark = await target.evaluate((el) => {
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0 ? `outline ${style.outlineStyle}` : "";
    const ring = style.boxShadow !== "none" && style.boxShadow !== "" ? "ring" : "";
    return outline || ring;
  });
  expect(mark, `focus mark on ${target}`).not.toBe("");
}

/** Types into the focused field (checks focus first: typing must reach it). */
async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.type(text);
  await expect(field).toHaveValue(text);
}

/** Picks an option of a choice (a radio group) with the arrow keys: Tab reaches its checked option, arrows move the choice. */
async function chooseWithArrows(page: Page, group: Locator, label: string): Promise<void> {
  await tabTo(page, group.getByRole("radio", { checked: true }));
  const options = await group.locator('[data-slot="segment-label"]').allTextContents();
  const to = options.indexOf(label);
  if (to < 0) throw new Error(`no option "${label}" in ${group}: ${options.join(", ")}`);
  const from = await group.getByRole("radio").evaluateAll((radios) => radios.findIndex((r) => (r as HTMLInputElement).checked));
  for (let i = 0; i < Math.abs(to - from); i++) await page.keyboard.press(to > from ? "ArrowRight" : "ArrowLeft");
  await expect(group.getByRole("radio", { name: label, exact: true })).toBeChecked();
  await expect(group.getByRole("radio", { name: label, exact: true })).toBeFocused();
}

test("sign up, create, watch, view and share with the keyboard only", async ({ page, context }) => {
  const account = newAccount();

  // Sign up.
  await page.goto("/sign-up");
  await typeInto(page, page.getByLabel("Email"), account.email);
  await typeInto(page, page.getByLabel("Password"), account.password);
  await tabTo(page, page.getByRole("button", { name: "Create account" }));
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("user-email")).toHaveText(account.email, { timeout: 30_000 });

  // To the image form through the header.
  await tabTo(page, page.getByRole("navigation").getByRole("link", { name: "Image to 3D", exact: true }));
  await page.keyboard.press("Enter");
  await page.waitForURL("/new/image");

  // The drop zone opens the file chooser on Enter.
  const zone = page.getByTestId("image-drop").getByRole("button", { name: /^Image: drop a file/ });
  // Listening before the key press: Playwright turns on its interception of file choosers when the
  // first listener comes, and a chooser opened before that is the browser's own (never reported).
  const choosing = page.waitForEvent("filechooser");
  // Enter opens it only once the page is hydrated.
  await expect(page.getByTestId("image-drop")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  await tabTo(page, zone);
  await page.keyboard.press("Enter");
  const chooser = await choosing;
  await chooser.setFiles(fixture("robot.png"));
  await expect(page.getByTestId("image-drop").getByText("Uploaded")).toBeVisible({ timeout: 20_000 });
  await expect(zone).toBeFocused();

  await chooseWithArrows(page, page.getByRole("radiogroup", { name: "Model", exact: true }), "v1.5");
  await chooseWithArrows(page, page.getByRole("radiogroup", { name: "Resolution" }), "512");
  await expect(page.getByTestId("task-cost")).toHaveText("15 credits");
  await tabTo(page, page.getByRole("button", { name: "Create 3D model" }));
  await page.keyboard.press("Enter");

  // The workspace shows the new task; its task page is a link away.
  const id = await newTaskShown(page);
  await tabTo(page, page.getByRole("link", { name: "Open task page" }));
  await page.keyboard.press("Enter");
  await page.waitForURL(`/tasks/${id}`);

  // Watch it run to the end.
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 120_000 });
  await expect.poll(() => drawnShare(page), { timeout: 30_000 }).toBeGreaterThan(0.03);

  // View: the canvas is a tab stop; the arrow keys turn the model.
  const canvas = page.getByTestId("viewer-canvas");
  await tabTo(page, canvas);
  await keepSettledPixels(page, "start");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
  await expect.poll(() => changeFrom(page, "start"), { timeout: 15_000 }).toBeGreaterThan(0.01);

  // Share: to the side panel's tabs (the chosen one is their tab stop), End for the last (Share), then create the link and open it as a visitor would see it.
  await tabTo(page, page.getByRole("tab", { name: "Print" }));
  await page.keyboard.press("End");
  await expect(page.getByRole("tab", { name: "Share" })).toHaveAttribute("aria-selected", "true");
  await tabTo(page, page.getByRole("button", { name: "Create share link" }));
  await page.keyboard.press("Enter");
  const link = page.getByTestId("share-link");
  await expect(link).toHaveValue(/\/share\/[A-Za-z0-9_-]{43}$/);
  const open = page.getByRole("link", { name: "Open" });
  await tabTo(page, open);
  const [shared] = await Promise.all([context.waitForEvent("page"), page.keyboard.press("Enter")]);
  await shared.waitForLoadState();
  expect(shared.url()).toBe(await link.inputValue());
  await expect.poll(() => drawnShare(shared), { timeout: 30_000 }).toBeGreaterThan(0.03);
  await expect(shared.getByTestId("user-email")).toHaveCount(0);
});
