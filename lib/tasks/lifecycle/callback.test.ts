import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database, db } from "@/lib/db";
import { users } from "@/lib/db/schema";
import { hashSecret, taskForCallback, secretMatches } from "./callback";
import { prepareTask } from "../create/record";
import { recordTask } from "../create/record.test-helpers";
import { tempDataDir } from "@/test/harness/temp-dir";

tempDataDir("callback-test");

describe("secretMatches", () => {
  const hash = hashSecret("the secret");

  it("accepts the secret whose sha256 is stored", () => {
    expect(secretMatches("the secret", hash)).toBe(true);
  });

  it("refuses other secrets, missing hashes and malformed input", () => {
    expect(secretMatches("the secreT", hash)).toBe(false);
    expect(secretMatches("", hash)).toBe(false);
    expect(secretMatches("the secret", null)).toBe(false);
    expect(secretMatches("the secret", "")).toBe(false);
    expect(secretMatches("the secret", hash.slice(2))).toBe(false);
    expect(secretMatches("the secret", "zz" + hash.slice(2))).toBe(false);
    // The hash itself is not the secret.
    expect(secretMatches(hash, hash)).toBe(false);
    expect(secretMatches("x".repeat(10_000), hash)).toBe(false);
  });
});

describe("taskForCallback", () => {
  beforeAll(async () => {
    await (await db()).insert(users).values({ id: "user-callback", email: "callback@example.com" });
  });
  afterAll(async () => {
    await (await database()).close();
  });

  it("finds the task only with the secret of its own callback URL", async () => {
    const a = prepareTask();
    const b = prepareTask();
    for (const t of [a, b]) {
      await recordTask({
        id: t.id,
        userId: "user-callback",
        kind: "depth",
        serviceTaskId: `svc-${t.id}`,
        options: {},
        inputs: {},
        cost: 20,
        callbackSecretHash: t.callbackSecretHash,
      });
    }
    const secretOf = (url: string) => url.split("/").pop()!;
    expect(a.callbackUrl).toMatch(new RegExp(`/api/callbacks/${a.id}/[A-Za-z0-9_-]{22}$`));
    expect((await taskForCallback(a.id, secretOf(a.callbackUrl)))?.id).toBe(a.id);
    expect(await taskForCallback(a.id, secretOf(b.callbackUrl))).toBeNull();
    expect(await taskForCallback("unknown", secretOf(a.callbackUrl))).toBeNull();
  });

  it("refuses every secret for a task recorded without a callback", async () => {
    await recordTask({
      id: "no-callback",
      userId: "user-callback",
      kind: "split",
      serviceTaskId: "svc-x",
      options: {},
      inputs: {},
      cost: 20,
      callbackSecretHash: null,
    });
    expect(await taskForCallback("no-callback", "anything")).toBeNull();
  });
});
