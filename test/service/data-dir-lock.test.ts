// One server at a time on an embedded database: a second server given the same DATA_DIR stops
// at its start, naming the folder and the first server's pid, and the first serves on; a server
// killed with -9 leaves its lock behind, and the next start takes it over. PostgreSQL servers
// share their database by design (two-servers.test.ts): this is the embedded database's rule.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, usingPostgres, type TestServer } from "../harness/server";

describe.skipIf(usingPostgres())("the embedded database's DATA_DIR", () => {
  let first: TestServer;
  beforeAll(async () => {
    first = await startServer({}, { postgres: false });
  });
  afterAll(() => first?.dispose());

  const lock = () => JSON.parse(fs.readFileSync(path.join(first.dataDir, "pglite.lock"), "utf8"));

  it("is held by its server, named in DATA_DIR/pglite.lock", () => {
    expect(lock()).toMatchObject({ pid: first.pid(), by: "server" });
  });

  it("refuses a second server: it exits naming the folder and the first server, which serves on", async () => {
    const second = startServer({ DATA_DIR: first.dataDir }, { postgres: false });
    await expect(second).rejects.toThrow(/server exited \(1\)/);
    await expect(second).rejects.toThrow(
      `not started: ${first.dataDir} is in use: its embedded database is open in another process (pid ${first.pid()}, server,`,
    );
    const health = await fetch(`${first.url}/api/health`);
    expect(health.status).toBe(200);
    expect(lock().pid).toBe(first.pid());
  }, 120_000);

  it("is taken over after a kill -9, and given back at a clean stop", async () => {
    const killed = first.pid();
    await first.stop(true);
    expect(lock().pid).toBe(killed);
    await first.restart();
    expect(lock().pid).toBe(first.pid());
    expect(first.pid()).not.toBe(killed);
    await first.stop();
    expect(fs.existsSync(path.join(first.dataDir, "pglite.lock"))).toBe(false);
  }, 120_000);
});
