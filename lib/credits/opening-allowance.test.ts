// The opening allowance against a real database (PGlite, or PostgreSQL in npm test's PostgreSQL
// run): granted once with its note, remembered by this process so a balance poll does not try the
// insert again, and not remembered when the transaction that opened it rolled back.
import { afterAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.X3D_DEFAULT_ALLOWANCE = "100";
});

const { openTestDatabase } = await import("@/lib/db/test-database.test-helpers");
const database = await openTestDatabase("opening-allowance");
const { db } = await import("@/lib/db");
const { creditLedger, users } = await import("@/lib/db/schema");
const { creditsOf, openAccount } = await import("./ledger");
const { eq } = await import("drizzle-orm");

afterAll(() => database.dispose());

let n = 0;
async function newUser(): Promise<string> {
  const id = `opening-${++n}`;
  await (await db()).insert(users).values({ id, email: `${id}@example.com` });
  return id;
}
const ledgerOf = async (userId: string) => (await db()).select().from(creditLedger).where(eq(creditLedger.userId, userId));

describe("opening allowance", () => {
  it("is granted once, with its note, and not written again on the next balance read", async () => {
    const artist = await newUser();
    expect(await creditsOf(artist)).toEqual({ allowance: 100, spent: 0, remaining: 100 });
    expect(await creditsOf(artist)).toEqual({ allowance: 100, spent: 0, remaining: 100 });
    expect((await ledgerOf(artist)).map((r) => [r.kind, r.amount, r.note])).toEqual([["grant", 100, "opening allowance"]]);
    // This process remembers the account as opened: a poll does not try the insert again (were
    // the row gone, it would not come back).
    await (await db()).delete(creditLedger).where(eq(creditLedger.userId, artist));
    expect(await creditsOf(artist)).toEqual({ allowance: 0, spent: 0, remaining: 0 });
  });

  it("opened in a transaction that rolled back, is granted on the next read", async () => {
    const artist = await newUser();
    const rollback = new Error("rolled back");
    const outcome = await (
      await db()
    )
      .transaction(async (tx) => {
        await openAccount(tx, artist);
        throw rollback;
      })
      .catch((e: unknown) => e);
    expect(outcome).toBe(rollback);
    expect(await ledgerOf(artist)).toEqual([]);
    expect((await creditsOf(artist)).allowance).toBe(100);
  });
});
