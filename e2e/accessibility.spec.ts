import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { chooseOption, createImageTask, expect, fixture, signInAsAdmin, signUp, test, setFiles } from "./fixtures";

/**
 * axe on every page of the studio, signed out and signed in, and on some pages after a step that
 * changes what they show (a form error, a viewer mode, a filled drop zone). Any violation of
 * impact "serious" or "critical" fails its page, named with its rule, targets and help.
 */

test.describe.configure({ timeout: 120_000 });

/** What the checks share: one signed-in account with two finished tasks, one of them shared. */
interface Studio {
  signedIn: BrowserContext;
  signedOut: BrowserContext;
  /** Signed in as the test servers' admin (ADMIN_EMAILS). */
  admin: BrowserContext;
  /** Studio ids of two finished image-to-3D tasks. */
  tasks: [string, string];
  /** `/share/<token>` of the first one. */
  sharePath: string;
}

interface PageCheck {
  name: string;
  signedIn: boolean;
  /** As the admin rather than as the artist. */
  admin?: boolean;
  path: (studio: Studio) => string;
  /** Brings the page to the state to check once it has loaded (waits for what it shows). */
  prepare?: (page: Page) => Promise<void>;
}

const viewerReady = async (page: Page) => {
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
};

/** Every route under app/ (find app -name page.tsx), plus states reached on them. Add a page here. */
const PAGES: PageCheck[] = [
  // Signed out.
  { name: "sign-in", signedIn: false, path: () => "/sign-in" },
  { name: "sign-up", signedIn: false, path: () => "/sign-up" },
  { name: "API docs", signedIn: false, path: () => "/docs/api" },
  { name: "a shared result", signedIn: false, path: (s) => s.sharePath, prepare: viewerReady },
  { name: "404 signed out", signedIn: false, path: () => "/no-such-page" },
  {
    name: "sign-in with a form error",
    signedIn: false,
    path: () => "/sign-in",
    prepare: async (page) => {
      await page.getByLabel("Email").fill("nobody@example.com");
      await page.getByLabel("Password").fill("a wrong password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByTestId("form-error")).toBeVisible({ timeout: 20_000 });
    },
  },
  {
    name: "sign-up with field errors",
    signedIn: false,
    path: () => "/sign-up",
    prepare: async (page) => {
      await page.getByLabel("Email").fill("not an email");
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true", { timeout: 20_000 });
    },
  },
  // Signed in.
  { name: "home", signedIn: true, path: () => "/" },
  {
    name: "home, filtered to a kind with no task",
    signedIn: true,
    path: () => "/?kind=split",
    prepare: async (page) => void (await expect(page.getByTestId("history-empty")).toContainText("No tasks match")),
  },
  { name: "new image to 3D", signedIn: true, path: () => "/new/image" },
  {
    name: "new image to 3D, several views",
    signedIn: true,
    path: () => "/new/image",
    prepare: async (page) => {
      await chooseOption(page, "Input", "Several views");
      await expect(page.getByRole("button", { name: /^Front: drop a file/ })).toBeVisible();
    },
  },
  {
    name: "new image to 3D with an image and a form error",
    signedIn: true,
    path: () => "/new/image",
    prepare: async (page) => {
      await setFiles(page.getByTestId("image-drop").locator('input[type="file"]'), fixture("robot.png"));
      await expect(page.getByTestId("image-drop").getByText("Uploaded")).toBeVisible({ timeout: 20_000 });
      await chooseOption(page, "Model", "v1.5");
      await page.getByLabel("Face count (exact)").fill("1");
      await page.getByRole("button", { name: "Create 3D model" }).click();
      await expect(page.getByRole("alert").first()).toBeVisible({ timeout: 20_000 });
    },
  },
  { name: "image to 3D workspace with a result shown", signedIn: true, path: (s) => `/new/image?task=${s.tasks[0]}`, prepare: viewerReady },
  {
    name: "image to 3D workspace comparing two results",
    signedIn: true,
    path: (s) => `/new/image?task=${s.tasks[0]}`,
    prepare: async (page) => {
      await page
        .locator('[data-testid=result-card][data-selected="false"]')
        .first()
        .getByRole("checkbox", { name: /^Compare / })
        .check();
      await expect(page.getByTestId("compare-viewer")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
    },
  },
  { name: "new texture", signedIn: true, path: () => "/new/texture" },
  { name: "new split", signedIn: true, path: () => "/new/split" },
  { name: "new depth", signedIn: true, path: () => "/new/depth" },
  { name: "new segmentation", signedIn: true, path: () => "/new/segmentation" },
  {
    name: "segmentation look-up of an unknown task",
    signedIn: true,
    path: () => "/new/segmentation",
    prepare: async (page) => {
      await page.getByLabel("Task id").fill("segmentation_00000000_unknown");
      await page.getByRole("button", { name: "Look up" }).click();
      await expect(page.getByText("No such task.")).toBeVisible({ timeout: 20_000 });
    },
  },
  {
    name: "task history",
    signedIn: true,
    path: () => "/tasks",
    prepare: async (page) => void (await expect(page.getByRole("link", { name: /Image to 3D/ }).first()).toBeVisible()),
  },
  { name: "a finished task", signedIn: true, path: (s) => `/tasks/${s.tasks[0]}`, prepare: viewerReady },
  {
    name: "a finished task, viewer in measure mode with a map shown and a light background",
    signedIn: true,
    path: (s) => `/tasks/${s.tasks[0]}`,
    prepare: async (page) => {
      await viewerReady(page);
      await page.getByRole("button", { name: "Wireframe" }).click();
      await page.getByRole("button", { name: "Background" }).click();
      const maps = page.getByRole("combobox", { name: "Maps" });
      await maps.click();
      await page.getByRole("option").nth(1).click();
      await expect(maps).not.toHaveAttribute("data-value", "lit");
      await expect(page.getByRole("button", { name: "Measure" })).toBeEnabled({ timeout: 30_000 });
      await page.getByRole("button", { name: "Measure" }).click();
      await expect(page.getByTestId("measure-distance")).toBeVisible();
    },
  },
  { name: "compare", signedIn: true, path: (s) => `/compare?t=${s.tasks[0]}&t=${s.tasks[1]}` },
  { name: "compare, choosing the second task", signedIn: true, path: (s) => `/compare?t=${s.tasks[0]}` },
  { name: "account", signedIn: true, path: () => "/account" },
  { name: "404 signed in", signedIn: true, path: () => "/tasks/no-such-task" },
  // The admin's.
  {
    name: "admin",
    signedIn: true,
    admin: true,
    path: () => "/admin",
    prepare: async (page) => void (await expect(page.getByTestId("admin-users")).toBeVisible()),
  },
  {
    name: "admin with an allowance refused",
    signedIn: true,
    admin: true,
    path: () => "/admin",
    prepare: async (page) => {
      const row = page
        .getByTestId("admin-user")
        .filter({ has: page.getByTestId("allowance-input") })
        .first();
      await row.getByTestId("allowance-input").fill("-5");
      await row.getByRole("button", { name: "Save" }).click();
      await expect(row.getByTestId("admin-notice")).toContainText("Allowance");
    },
  },
];

/** Runs axe on the page and fails on serious or critical violations, naming each. */
async function expectNoSeriousViolations(page: Page, name: string) {
  // target-size (WCAG 2.2: tap targets of at least 24 × 24 px, or spaced) is off in axe by default.
  const { violations } = await new AxeBuilder({ page }).options({ rules: { "target-size": { enabled: true } } }).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = serious.map(
    (v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}`).join("\n")}`,
  );
  const minor = violations.filter((v) => !serious.includes(v)).map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}`);
  if (minor.length) console.log(`[axe] ${name}: lesser: ${minor.join(", ")}`);
  expect(report, `axe on ${name}: serious or critical violations`).toEqual([]);
}

async function finishedTask(page: Page): Promise<string> {
  const id = await createImageTask(page);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 120_000 });
  return id;
}

async function openStudio(browser: Browser): Promise<Studio> {
  const signedIn = await browser.newContext();
  const page = await signedIn.newPage();
  await signUp(page);
  const first = await finishedTask(page);
  const second = await finishedTask(page);
  await page.goto(`/tasks/${first}`);
  await page.getByRole("tab", { name: "Share" }).click();
  await page.getByRole("button", { name: "Create share link" }).click();
  const link = await page.getByTestId("share-link").inputValue();
  await page.close();
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signInAsAdmin(adminPage);
  await adminPage.close();
  return { signedIn, signedOut: await browser.newContext(), admin, tasks: [first, second], sharePath: new URL(link).pathname };
}

let studio: Studio | undefined;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  studio = await openStudio(browser);
});

test.afterAll(async () => {
  await studio?.signedIn.close();
  await studio?.signedOut.close();
  await studio?.admin.close();
});

/**
 * Each page three ways: the light theme on a desktop (Playwright's default colour scheme), the dark
 * theme, and a 390 × 844 phone; axe's target-size rule holds every tap target to 24 × 24 px.
 */
const WAYS = [
  { label: "", setUp: async () => undefined },
  { label: ", dark theme", setUp: (page: Page) => page.emulateMedia({ colorScheme: "dark" }) },
  { label: ", phone", setUp: (page: Page) => page.setViewportSize({ width: 390, height: 844 }) },
] as const;

for (const check of PAGES) {
  for (const way of WAYS) {
    test(`axe: ${check.name}${check.signedIn ? "" : " (signed out)"}${way.label}`, async () => {
      if (!studio) throw new Error("the shared account was not set up");
      const page = await (check.admin ? studio.admin : check.signedIn ? studio.signedIn : studio.signedOut).newPage();
      try {
        await way.setUp(page);
        await page.goto(check.path(studio));
        await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined);
        await check.prepare?.(page);
        await expectNoSeriousViolations(page, `${check.name}${way.label}`);
      } finally {
        await page.close();
      }
    });
  }
}
