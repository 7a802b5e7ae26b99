import fs from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDataDir } from "@/test/harness/temp-dir";

// A throwaway database: serverEnv() reads DATA_DIR on first use.
tempDataDir("transitions-test");
const { db, database } = await import("@/lib/db");
const { engineClients, engineTasks } = await import("@/lib/db/schema");
const { failAndRefund } = await import("./transitions");

const balance = async () => (await (await db()).select().from(engineClients).where(eq(engineClients.id, "c")))[0]?.balance;
const task = async (id: string) => (await (await db()).select().from(engineTasks).where(eq(engineTasks.id, id)))[0];

beforeAll(async () => {
  const d = await db();
  await d.insert(engineClients).values({ id: "c", secretHash: "x", balance: 100 });
  const row = { clientId: "c", kind: "depth" as const, options: {}, inputs: {}, cost: 10 };
  await d.insert(engineTasks).values([
    { ...row, id: "depth_20261124_000000000000000000000001", state: "processing", owner: "server-b" },
    { ...row, id: "depth_20261124_000000000000000000000002", state: "queueing", owner: null },
    { ...row, id: "depth_20261124_000000000000000000000003", state: "processing", owner: "server-a" },
  ]);
});

afterAll(async () => {
  await (await database()).close();
  fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
});

describe("failAndRefund", () => {
  it("leaves a task another server took over (or the queue took back) to its new run", async () => {
    // server-a stalled past its lease: its task went to server-b, and another back to the queue.
    expect(await failAndRefund("depth_20261124_000000000000000000000001", "late failure", "server-a")).toBe(false);
    expect(await failAndRefund("depth_20261124_000000000000000000000002", "late failure", "server-a")).toBe(false);
    expect(await task("depth_20261124_000000000000000000000001")).toMatchObject({
      state: "processing",
      owner: "server-b",
      refunded: false,
    });
    expect(await task("depth_20261124_000000000000000000000002")).toMatchObject({ state: "queueing", refunded: false });
    expect(await balance()).toBe(100);
  });

  it("fails and refunds its owner's task once", async () => {
    expect(await failAndRefund("depth_20261124_000000000000000000000003", "broken input", "server-a")).toBe(true);
    expect(await failAndRefund("depth_20261124_000000000000000000000003", "broken input", "server-a")).toBe(false);
    expect(await task("depth_20261124_000000000000000000000003")).toMatchObject({
      state: "failed",
      refunded: true,
      owner: null,
      failure: "broken input",
    });
    expect(await balance()).toBe(110);
  });
});
