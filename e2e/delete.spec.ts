import { createImageTask, expect as baseExpect, hydrateLate, test } from "./fixtures";

// Generation on the embedded service takes a few seconds; pages draw a WebGL viewer meanwhile.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 180_000 });

test("a task is deleted from its page after a confirm step, by keyboard; its share link and page are gone", async ({
  page,
  account,
  browser,
}) => {
  expect(account.email).toContain("@"); // signed up: the fixture runs only when named
  const id = await createImageTask(page);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  // Clicked as soon as the page shows, its scripts still on their way: the click must wait for
  // the button to work, not be lost.
  await hydrateLate(page, 1500);
  await page.reload({ waitUntil: "commit" });
  // The tabs, like the buttons, take a click only once the page's scripts run (they wait for it).
  await page.getByRole("tab", { name: "Share" }).click();
  await page.getByRole("button", { name: "Create share link" }).click();
  const link = await page.getByTestId("share-link").inputValue();

  // The first click only asks; Escape leaves everything as it was.
  const dialog = page.getByRole("dialog", { name: "Delete this task?" });
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("not refunded");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/tasks/${id}$`));
  expect((await page.request.get(`/api/tasks/${id}`)).status()).toBe(200);

  // Asked again, and confirmed from the keyboard.
  await page.getByRole("button", { name: "Delete", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Delete task" })).toBeFocused();
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(new RegExp(`/tasks\\?deleted=${id}$`));
  await expect(page.getByRole("status").filter({ hasText: "Task deleted" })).toBeVisible();
  await expect(page.locator(`a[href="/tasks/${id}"]`)).toHaveCount(0);
  expect((await page.request.get(`/api/tasks/${id}`)).status()).toBe(404);
  expect((await page.request.get(`/api/files/${id}/result`)).status()).toBe(404);
  expect((await page.goto(`/tasks/${id}`))?.status()).toBe(404);

  const visitor = await (await browser.newContext()).newPage();
  expect((await visitor.goto(link))?.status()).toBe(404);
});

test("a task is deleted from its history row, also while it runs", async ({ page, account }) => {
  expect(account.email).toContain("@");
  const kept = await createImageTask(page);
  const gone = await createImageTask(page);
  // Clicked as soon as the rows show, the scripts still on their way (a CI run's busy machine
  // once got there too: the click on the row's Delete was lost and the dialog never opened).
  await hydrateLate(page, 1500);
  await page.goto("/tasks", { waitUntil: "commit" });
  const row = (id: string) => page.getByTestId("task-row").filter({ has: page.locator(`a[href="/tasks/${id}"]`) });
  await expect(row(gone)).toHaveCount(1);

  await row(gone)
    .getByRole("button", { name: /^Delete the Image to 3D task of / })
    .click();
  const dialog = page.getByRole("dialog", { name: "Delete this task?" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(row(gone)).toHaveCount(1);

  await row(gone)
    .getByRole("button", { name: /^Delete the Image to 3D task of / })
    .click();
  await dialog.getByRole("button", { name: "Delete task" }).click();
  await expect(page).toHaveURL(new RegExp(`/tasks\\?deleted=${gone}$`));
  await expect(page.getByTestId("deleted-status")).toBeVisible();
  await expect(row(gone)).toHaveCount(0);
  await expect(row(kept)).toHaveCount(1);
  expect((await page.request.get(`/api/tasks/${gone}`)).status()).toBe(404);
});
