import { expect, test as base, type Page } from "@playwright/test";
import crypto from "node:crypto";
import path from "node:path";

export const FIXTURES = path.resolve(import.meta.dirname, "../test/fixtures");
export const fixture = (name: string) => path.join(FIXTURES, name);

export interface Account {
  email: string;
  password: string;
}

/** Signs a new account up through the UI and leaves the page on the studio's home. */
export async function signUp(page: Page, account: Account = newAccount()): Promise<Account> {
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("user-email")).toHaveText(account.email);
  return account;
}

export function newAccount(): Account {
  return { email: `artist-${crypto.randomBytes(4).toString("hex")}@example.com`, password: "a long password" };
}

/** A page already signed in as a fresh account. */
export const test = base.extend<{ account: Account }>({
  account: async ({ page }, use) => {
    await use(await signUp(page));
  },
});
export { expect };
