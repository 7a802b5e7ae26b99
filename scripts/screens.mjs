// Screenshots of every studio page as an artist sees it, on a desktop (1400×900) and a phone
// (390×844), with a few facts per picture: how far the page scrolls, whether it scrolls
// sideways, how tall the header is and how much of the screen the 3D viewer gets. Made to
// compare the studio before and after a redesign (issue 27).
//
//   node scripts/screens.mjs --base http://127.0.0.1:3400 --out docs/screens/before [--admin-email E]
//
// The server must run with ADMIN_EMAILS naming the admin (default screens-admin@example.com)
// and an allowance for a few tasks. The account, tasks and share link are made through the UI
// (scripts/studio-session.mjs). Viewport screenshots, not full page: what fits on one screen.
import fs from "node:fs";
import path from "node:path";
import { ADMIN_EMAIL, launchBrowser, parseArgs, setUpStudio } from "./studio-session.mjs";

const USAGE = "usage: node scripts/screens.mjs --base http://127.0.0.1:PORT --out docs/screens/<label> [--admin-email EMAIL]";

const SIZES = {
  desktop: { viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
};

/** The pages, in order, with the session each is seen in and whether it holds viewers to wait for. */
function pages({ taskIds, shareToken }) {
  const [a, b] = taskIds;
  return [
    { name: "sign-in", path: "/sign-in", as: "visitor" },
    { name: "sign-up", path: "/sign-up", as: "visitor" },
    { name: "home", path: "/", as: "artist" },
    { name: "new-image", path: "/new/image", as: "artist" },
    { name: "new-texture", path: "/new/texture", as: "artist" },
    { name: "new-split", path: "/new/split", as: "artist" },
    { name: "new-depth", path: "/new/depth", as: "artist" },
    { name: "new-segmentation", path: "/new/segmentation", as: "artist" },
    { name: "tasks", path: "/tasks", as: "artist" },
    { name: "task", path: `/tasks/${encodeURIComponent(a)}`, as: "artist", viewers: 1 },
    { name: "compare", path: `/compare?t=${encodeURIComponent(a)}&t=${encodeURIComponent(b)}`, as: "artist", viewers: 2 },
    // A share link is for people without an account: seen signed out.
    { name: "share", path: `/share/${shareToken}`, as: "visitor", viewers: 1 },
    { name: "admin", path: "/admin", as: "admin" },
    { name: "api-docs", path: "/docs/api", as: "artist" },
    { name: "account", path: "/account", as: "artist" },
  ];
}

/** The 3D views: the task and share pages' viewer, the compare page's two-pane stage. */
const VIEWERS = '[data-testid="model-viewer"], [data-testid="compare-stage"]';

/**
 * Waits until the page is drawn as it will stay: its `viewers` 3D views ready at full detail (the
 * compare page says so for both panes on its compare-viewer) and ~1 s more to settle, fonts
 * loaded, network quiet.
 */
async function settle(page, viewers) {
  if (viewers) {
    await page.waitForFunction(
      (n) =>
        document.querySelector('[data-testid="compare-viewer"][data-state="ready"]') ||
        document.querySelectorAll('[data-testid="model-viewer"][data-state="ready"]').length >= n,
      viewers,
      { timeout: 180_000, polling: 250 },
    );
  }
  await page.waitForLoadState("networkidle", { timeout: 15_000 }).catch(() => {});
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(viewers ? 1000 : 300);
}

/**
 * What an artist would notice about the page as it stands on a screen of `width`×`height` CSS
 * pixels. A phone widens its layout viewport (innerWidth) to a page too wide for it, so sideways
 * scrolling is judged against the screen's width too.
 */
function measure({ width: vw, height: vh, selector }) {
  const header = document.querySelector("header");
  let viewerArea = 0;
  const viewers = document.querySelectorAll(selector);
  for (const v of viewers) {
    const r = v.getBoundingClientRect();
    const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0));
    const h = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
    viewerArea += w * h;
  }
  return {
    scrollHeight: document.documentElement.scrollHeight,
    viewportHeight: vh,
    sideways: document.documentElement.scrollWidth > Math.min(window.innerWidth, vw),
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    headerHeight: header ? Math.round(header.getBoundingClientRect().height) : null,
    viewers: viewers.length,
    viewerShare: viewers.length ? Math.round((viewerArea / (vw * vh)) * 1000) / 1000 : null,
  };
}

function printTable(rows) {
  const head = ["page", "size", "scroll h", "sideways", "header h", "viewer share"];
  const body = rows.map((r) =>
    r.skipped
      ? [r.page, r.size, `skipped (${r.skipped})`, "", "", ""]
      : [
          r.page,
          r.size,
          `${r.scrollHeight} (${(r.scrollHeight / r.viewportHeight).toFixed(1)} screens)`,
          r.sideways ? `YES (${r.scrollWidth}px)` : "no",
          r.headerHeight === null ? "none" : `${r.headerHeight}px`,
          r.viewerShare === null ? "" : `${(r.viewerShare * 100).toFixed(0)}%${r.viewers > 1 ? ` (${r.viewers} viewers)` : ""}`,
        ],
  );
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => String(row[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join("  ");
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of body) console.log(line(row));
}

async function main() {
  const args = parseArgs(process.argv.slice(2), { usage: USAGE, required: ["base", "out"] });
  const out = path.resolve(args.out);
  fs.mkdirSync(out, { recursive: true });
  const log = (m) => console.error(`[screens] ${m}`);
  const browser = await launchBrowser();
  try {
    const studio = await setUpStudio(browser, args.base, { adminEmail: args["admin-email"] ?? ADMIN_EMAIL, log });
    const states = { visitor: undefined, artist: studio.artistState, admin: studio.adminState };
    const rows = [];
    for (const [size, device] of Object.entries(SIZES)) {
      // One context per session and size, kept across its pages (as an artist's browser is).
      const contexts = {};
      try {
        for (const p of pages(studio)) {
          contexts[p.as] ??= await browser.newContext({ baseURL: args.base, storageState: states[p.as], ...device });
          const page = await contexts[p.as].newPage();
          try {
            const response = await page.goto(p.path, { waitUntil: "load", timeout: 60_000 });
            const status = response?.status() ?? 0;
            if (status === 404) {
              log(`${p.name} ${size}: 404, skipped`);
              rows.push({ page: p.name, size, skipped: "404" });
              continue;
            }
            await settle(page, p.viewers);
            const facts = await page.evaluate(measure, { ...device.viewport, selector: VIEWERS });
            const file = path.join(out, `${p.name}-${size}.jpg`);
            await page.screenshot({ path: file, type: "jpeg", quality: 80 });
            rows.push({
              page: p.name,
              size,
              path: p.path.replace(/\/(tasks|share)\/[^/?]+/, "/$1/<id>").replace(/t=[^&]+/g, "t=<id>"),
              status,
              ...facts,
            });
            log(`${p.name} ${size}: ${path.relative(process.cwd(), file)}`);
          } catch (e) {
            log(`${p.name} ${size}: FAILED ${e.message.split("\n")[0]}`);
            rows.push({ page: p.name, size, skipped: `failed: ${e.message.split("\n")[0]}` });
          } finally {
            await page.close();
          }
        }
      } finally {
        for (const c of Object.values(contexts)) await c.close();
      }
    }
    printTable(rows);
    fs.writeFileSync(path.join(out, "facts.json"), `${JSON.stringify(rows, null, 2)}\n`);
    if (rows.some((r) => r.skipped?.startsWith("failed"))) process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
