import type { Browser, Page } from "@playwright/test";
import {
  chooseOption,
  createImageTask,
  expect,
  fixture,
  readActionAnswersLate,
  signIn,
  signInAsAdmin,
  signUp,
  test,
  setFiles,
} from "./fixtures";

/** A second browser context signed in as the admin, on /admin. */
async function adminPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInAsAdmin(page);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Admin", level: 1 })).toBeVisible();
  return page;
}

const userRow = (page: Page, email: string) => page.locator(`[data-testid=admin-user][data-email="${email}"]`);

async function setAllowance(admin: Page, email: string, allowance: number) {
  const row = userRow(admin, email);
  await row.getByLabel(`Allowance of ${email}`).fill(String(allowance));
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row.getByTestId("admin-notice")).toContainText(`allowance ${allowance}`);
}

test("an admin sets an artist's allowance; the artist spends it, is refused past it with the cost and the remainder, and the admin sees the spending", async ({
  page,
  account,
  browser,
}) => {
  await expect(page.getByTestId("balance")).toHaveText("100000 credits");
  const admin = await adminPage(browser);
  await expect(admin.getByTestId("service-balance")).toHaveText(/^\d+ credits$/);
  // Answers read late, as on a busy machine: the field is shut until the answer is in.
  await readActionAnswersLate(admin, 300);
  await admin.reload();
  const row = userRow(admin, account.email);
  await row.getByLabel(`Allowance of ${account.email}`).fill("-5");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row.getByLabel(`Allowance of ${account.email}`)).toBeDisabled();
  await expect(row.getByTestId("admin-notice")).toHaveText("Allowance: it cannot be below 0.");
  await setAllowance(admin, account.email, 20);

  // The artist's own credits, never the service account's.
  const balance = (await (await page.request.get("/api/balance")).json()) as Record<string, unknown>;
  expect(balance).toEqual({ role: "artist", credits: { allowance: 20, spent: 0, remaining: 20 } });
  await page.reload();
  await expect(page.getByTestId("balance")).toHaveText("20 credits");

  const taskId = await createImageTask(page); // v1.5 at 512, textured: 15 credits
  await page.goto("/new/image");
  await expect(page.getByTestId("balance")).toHaveText("5 credits");
  await setFiles(page.getByTestId("image-drop").locator('input[type="file"]'), fixture("robot.png"));
  await expect(page.locator('input[name="images"]')).not.toHaveValue("", { timeout: 20_000 });
  await chooseOption(page, "Model", "v1.5");
  await chooseOption(page, "Resolution", "512");
  await expect(page.getByTestId("balance-short")).toHaveText(
    "Your credits are too low for this task: it costs 15 credits and you have 5 left.",
  );
  await page.getByRole("button", { name: "Create 3D model" }).click();
  await expect(page.getByText("This task costs 15 credits and you have 5 left.", { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/\/new\/image/);

  await admin.reload();
  await expect(row.getByTestId("spent")).toHaveText("15");
  await expect(row.getByTestId("remaining")).toHaveText("5");
  await expect(row.getByTestId("task-count")).toHaveText("1");

  // The admin deletes the artist's task: it is gone for its owner, its charge stays.
  await admin.getByRole("button", { name: `Delete task ${taskId} of ${account.email}` }).click();
  await admin.getByTestId("delete-dialog").getByRole("button", { name: "Delete task" }).click();
  await expect(admin).toHaveURL(/\/admin\?deleted=/);
  await expect(admin.locator(`[data-testid=admin-task][data-task="${taskId}"]`)).toHaveCount(0);
  await expect(row.getByTestId("task-count")).toHaveText("0");
  await expect(row.getByTestId("spent")).toHaveText("15");
  expect((await page.goto(`/tasks/${taskId}`))?.status()).toBe(404);
});

test("a disabled artist is signed out at once and cannot sign in until re-enabled", async ({ page, account, browser }) => {
  const admin = await adminPage(browser);
  const row = userRow(admin, account.email);
  await row.getByRole("button", { name: "Disable" }).click();
  await expect(row.getByTestId("admin-notice")).toHaveText(`${account.email} is disabled and signed out.`);
  await expect(row.getByTestId("account-status")).toHaveText("disabled");

  await page.goto("/tasks");
  await expect(page).toHaveURL(/\/sign-in/);
  expect((await page.request.get("/api/balance")).status()).toBe(401);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("This account is disabled. Ask an admin of this studio to enable it.")).toBeVisible();

  await row.getByRole("button", { name: "Enable" }).click();
  await expect(row.getByTestId("account-status")).toHaveText("active");
  await signIn(page, account);
});

test("/admin is a 404 for artists and for visitors, and artists have no Admin link", async ({ page, browser }) => {
  const visitor = await browser.newContext();
  expect((await visitor.request.get("/admin")).status()).toBe(404);
  await signUp(page);
  await expect(page.getByRole("link", { name: "Admin" })).toHaveCount(0);
  const response = await page.goto("/admin");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This page could not be found." })).toBeVisible();
  const admin = await adminPage(browser);
  await expect(admin.getByRole("link", { name: "Admin" })).toBeVisible();
});

test("the admin page fits a 390 px phone: its tables scroll inside their boxes, the page not sideways", async ({ browser }) => {
  const admin = await adminPage(browser);
  await admin.setViewportSize({ width: 390, height: 844 });
  await expect(admin.getByTestId("admin-users")).toBeVisible();
  // The users table is wider than the phone: it scrolls in its box.
  const table = await admin.getByTestId("admin-users").evaluate((t) => ({ table: t.scrollWidth, box: t.parentElement?.clientWidth ?? 0 }));
  expect(table.table).toBeGreaterThan(table.box);
  expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // Each row stays one line: squeezed to the phone, dates and emails wrapped a row to five lines.
  for (const id of ["admin-user", "admin-task"]) {
    const heights = await admin.getByTestId(id).evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
    // Users there are always (the admin at least); tasks only when another spec made some first.
    if (id === "admin-user") expect(heights.length, id).toBeGreaterThan(0);
    for (const h of heights) expect(h, id).toBeLessThan(56);
  }
  await admin.context().close();
});
