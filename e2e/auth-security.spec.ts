import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, newAccount, signOutVia, signUp, test, type Account } from "./fixtures";

// evil.example does not resolve: a redirect there fails the navigation (ERR_NAME_NOT_RESOLVED).

/** The page is on the studio's own origin, at `path`. */
async function expectHome(page: Page, path = "/") {
  await expect.poll(() => new URL(page.url()).host).toBe(new URL(test.info().project.use.baseURL!).host);
  await expect.poll(() => new URL(page.url()).pathname).toBe(path);
}

async function signIn(page: Page, account: Account) {
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** A second browser (own cookies) signed in to `account`. */
async function secondBrowser(browser: Browser, account: Account): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/sign-in");
  await signIn(page, account);
  await expect(page.getByTestId("user-email")).toHaveText(account.email);
  return { context, page };
}

const NEXTS = ["//evil.example", "/\\evil.example", "https://evil.example/", "/%2F%2Fevil.example", "/\t/evil.example"];

test("a signed-in user opening /sign-in?next=<another site> stays on the studio", async ({ page, account }) => {
  void account;
  for (const next of NEXTS) {
    await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await expectHome(page);
    await expect(page.getByTestId("user-email")).toBeVisible();
  }
});

test("signing in from /sign-in?next=<another site> lands on the studio; a path on the site is followed", async ({ page, browser }) => {
  const account = await signUp(page);
  await signOutVia(page);
  await expect(page).toHaveURL(/\/sign-in/);
  for (const next of ["/\\evil.example", "//evil.example"]) {
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await signIn(visitor, account);
    await expect(visitor.getByTestId("user-email")).toHaveText(account.email);
    await expectHome(visitor);
    await visitor.context().close();
  }
  await page.goto(`/sign-in?next=${encodeURIComponent("/tasks")}`);
  await signIn(page, account);
  await expectHome(page, "/tasks");
});

test("a session cookie copied before sign-out is refused after it, at once", async ({ page, account, browser, playwright }) => {
  void account;
  const copied = await page.context().cookies();
  expect(copied.some((c) => c.name.includes("session-token"))).toBe(true);
  await signOutVia(page);
  await expect(page).toHaveURL(/\/sign-in/);

  const cookie = copied.map((c) => `${c.name}=${c.value}`).join("; ");
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL, extraHTTPHeaders: { cookie } });
  expect((await api.get("/api/balance")).status()).toBe(401);
  expect((await api.get("/api/auth/session")).ok()).toBe(true);
  expect(await (await api.get("/api/auth/session")).json()).toBeNull();
  await api.dispose();

  const thief = await browser.newContext();
  await thief.addCookies(copied);
  const stolen = await thief.newPage();
  await stolen.goto("/tasks");
  await expect(stolen).toHaveURL(/\/sign-in/);
  await thief.close();
});

test("Sign out everywhere ends the account's other sessions at once", async ({ page, account, browser }) => {
  const other = await secondBrowser(browser, account);
  expect((await other.page.request.get("/api/balance")).status()).toBe(200);

  await signOutVia(page, "Sign out everywhere");
  await expect(page).toHaveURL(/\/sign-in/);

  expect((await other.page.request.get("/api/balance")).status()).toBe(401);
  await other.page.goto("/tasks");
  await expect(other.page).toHaveURL(/\/sign-in/);
  await other.context.close();

  // The account itself still works: a new sign-in is a new session.
  await signIn(page, account);
  await expect(page.getByTestId("user-email")).toHaveText(account.email);
});

test("sign-up refuses a common password, naming the rule, and accepts a strong one", async ({ page }) => {
  const account = newAccount();
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill("password1234");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText(/^This password is too easy to guess\./)).toBeVisible();
  await expect(page).toHaveURL(/\/sign-up/);
  await signUp(page, { ...account, password: "umber kiln vellum forty" });
});
