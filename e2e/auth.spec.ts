import { expect, newAccount, readActionAnswersLate, signOutVia, signUp, test } from "./fixtures";

test("pages need a session: / sends a visitor to sign-in", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("sign up, see the studio and the balance, sign out, sign in again", async ({ page }) => {
  const account = await signUp(page);
  await expect(page.getByRole("heading", { name: "Start something" })).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText(/^\d+ credits$/);
  await signOutVia(page);
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("user-email")).toHaveText(account.email);
});

test("sign-up errors name the field; a taken email is refused", async ({ page }) => {
  const account = await signUp(page);
  await signOutVia(page);
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  await expect(page.getByText("Use at least 10 characters.")).toBeVisible();
  // The fields are shut while the answer comes; then the focus is on the first field to fix.
  await expect(page.getByLabel("Email")).toBeFocused();
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill("another long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("An account with this email exists. Sign in instead.")).toBeVisible();
});

test("repeated failed sign-ins are slowed down", async ({ page }) => {
  // Late answers: the next attempt's typing must not be wiped by the last one's form reset
  // (it was, once, on a loaded CI machine: an empty password went out and was not counted).
  await readActionAnswersLate(page, 300);
  const { email } = newAccount();
  await page.goto("/sign-in");
  for (let i = 0; i < 3; i++) {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(`wrong ${i}`);
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);
    // Until the answer is read, the fields are shut; then typing goes on in the password.
    if (i === 0) await expect(page.getByLabel("Password")).toBeDisabled();
    await expect(page.getByTestId("form-error")).toBeVisible();
    await expect(page.getByLabel("Password")).toBeFocused();
  }
  await expect(page.getByTestId("form-error")).toHaveText(/Too many failed attempts\. Try again in \d+ seconds\./);
});
