import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CANARY_CLIENT_ID, CANARY_CLIENT_SECRET } from "./e2e/canary";
import { ADMIN_EMAIL } from "./e2e/admin-account";

const port = Number(process.env.E2E_PORT ?? 3100);
/** The studio that uses the first server as its remote service. */
export const livePort = port + 1;
/**
 * A data folder for one of the run's servers. Playwright loads this file in its main process and
 * again in each worker: the main process makes the folder and hands it to the workers (which it
 * forks) through the environment, and removes it when it exits, after the servers are stopped.
 * Each run's folders hold up to 800 MB of tasks; kept, they once filled a CI machine's disk.
 */
export function runDataDir(variable: string, prefix: string): string {
  const given = process.env[variable];
  if (given) return given;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.env[variable] = dir;
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const dataDir = runDataDir("X3D_E2E_DATA_DIR", "x3d-e2e-");
// Debian's Chromium where installed (CI, these machines); Playwright's own browser elsewhere.
const systemChromium = fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  // Two workers, one spec file each at a time: every spec signs its own accounts up, and each
  // account has its own credits (what the header shows an artist), so specs share nothing a test
  // reads but the admin account, which only reads and changes other accounts.
  fullyParallel: false,
  workers: 2,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: systemChromium,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: [
    {
      command: `node node_modules/next/dist/bin/next start -p ${port}`,
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: false,
      stdout: process.env.E2E_SERVER_LOG ? "pipe" : "ignore",
      timeout: 120_000,
      env: {
        DATA_DIR: dataDir,
        PORT: String(port),
        NEXT_TELEMETRY_DISABLED: "1",
        X3D_CLIENT_ID: CANARY_CLIENT_ID,
        X3D_CLIENT_SECRET: CANARY_CLIENT_SECRET,
        // Every studio user spends from the one service account: enough for all specs.
        X3D_ENGINE_BALANCE: "100000",
        // Every spec signs a fresh account up from this one address.
        SIGN_UPS_PER_ADDRESS: "100000",
        // Specs create many tasks per account; e2e/admin.spec.ts sets small allowances itself.
        X3D_DEFAULT_ALLOWANCE: "100000",
        ADMIN_EMAILS: ADMIN_EMAIL,
      },
    },
    {
      // A second studio with its embedded service off, using the first one as "the live
      // service" through X3D_BASE_URL (e2e/live-service.spec.ts).
      command: `node node_modules/next/dist/bin/next start -p ${livePort}`,
      url: `http://127.0.0.1:${livePort}/sign-in`,
      reuseExistingServer: false,
      stdout: process.env.E2E_SERVER_LOG ? "pipe" : "ignore",
      timeout: 120_000,
      env: {
        DATA_DIR: runDataDir("X3D_E2E_LIVE_DATA_DIR", "x3d-e2e-live-"),
        PORT: String(livePort),
        NEXT_TELEMETRY_DISABLED: "1",
        X3D_ENGINE: "off",
        SIGN_UPS_PER_ADDRESS: "100000",
        X3D_DEFAULT_ALLOWANCE: "100000",
        ADMIN_EMAILS: ADMIN_EMAIL,
        X3D_BASE_URL: `http://127.0.0.1:${port}`,
        X3D_CLIENT_ID: CANARY_CLIENT_ID,
        X3D_CLIENT_SECRET: CANARY_CLIENT_SECRET,
      },
    },
  ],
});
