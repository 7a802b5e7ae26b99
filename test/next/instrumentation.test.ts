// instrumentation.ts's register() starts the server's services (the database, the embedded
// service and its queue). `next build` calls it too, in the workers that prerender pages: it
// must start nothing there. Before it checked, each build opened ./data's database (creating it
// and the service's credentials), and would have run queued tasks of a DATA_DIR a server uses.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LOCK_NAME, lockDataDir } from "@/lib/db/data-dir-lock.mjs";

const started: string[] = [];
const fatal: string[] = [];
const services = { failWith: null as Error | null };
vi.mock("@/lib/log", () => ({
  log: { fatal: (_fields: unknown, message: string) => fatal.push(message) },
  registerSecret: () => {},
  routeConsoleToLog: () => started.push("log"),
  withLogContext: (_name: string, fn: () => unknown) => fn(),
}));
vi.mock("@/lib/http/request-id", () => ({ stampRequestIds: () => started.push("request ids") }));
vi.mock("@/lib/files/restore-content-length", () => ({ restoreContentLength: () => started.push("content length") }));
vi.mock("@/lib/accounts/stamp-client-address", () => ({ stampClientAddress: () => started.push("client address") }));
vi.mock("@/lib/start-services", () => ({
  startServices: async () => {
    if (services.failWith) throw services.failWith;
    started.push("services");
  },
}));
vi.mock("@/lib/http/worker-gate", () => ({ serveOnlyHealth: () => started.push("worker gate") }));

const { register } = await import("@/instrumentation");

afterEach(() => {
  started.length = 0;
  fatal.length = 0;
  services.failWith = null;
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("register", () => {
  it("starts the services in a server", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("NEXT_PHASE", "phase-production-server");
    await register();
    expect(started).toContain("services");
  });

  it("starts nothing while `next build` prerenders", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("NEXT_PHASE", "phase-production-build");
    await register();
    expect(started).toEqual([]);
  });

  it("starts nothing in the edge runtime", async () => {
    vi.stubEnv("NEXT_RUNTIME", "edge");
    await register();
    expect(started).toEqual([]);
  });

  it("stops the process, saying why, when DATA_DIR's embedded database is another process's", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("NEXT_PHASE", "phase-production-server");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "x3d-held-"));
    try {
      // The error lockDataDir gives for a DATA_DIR a live process (this test's parent) holds.
      fs.writeFileSync(path.join(dir, LOCK_NAME), JSON.stringify({ pid: process.ppid, by: "server", started: null, host: "h", at: "t" }));
      services.failWith = (() => {
        try {
          lockDataDir(dir, "server");
        } catch (error) {
          return error as Error;
        }
        throw new Error("the lock was taken");
      })();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const exit = vi.spyOn(process, "exit").mockImplementation(() => {
      throw new Error("process.exit");
    });
    await expect(register()).rejects.toThrow("process.exit");
    expect(exit).toHaveBeenCalledWith(1);
    expect(fatal).toEqual([`[x3d] not started: ${services.failWith.message}`]);
    expect(fatal[0]).toContain(`pid ${process.ppid}`);
  });

  it("leaves any other failure of the services to Next (it logs it and goes on)", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("NEXT_PHASE", "phase-production-server");
    services.failWith = Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
    const exit = vi.spyOn(process, "exit").mockImplementation(() => undefined as never);
    await expect(register()).rejects.toThrow("connection refused");
    expect(exit).not.toHaveBeenCalled();
  });
});
