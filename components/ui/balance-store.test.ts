import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { balanceNow, refreshBalance, REFRESH_MS, resetBalanceForTest, subscribeBalance } from "./balance-store";

const view = (remaining: number) => ({ role: "user", credits: { allowance: 100, spent: 100 - remaining, remaining } });

/** A fake /api/balance: answers in order, each call waiting until released. */
function fakeFetch(answers: Array<{ status: number; body: unknown }>) {
  const calls: Array<() => void> = [];
  const fetchMock = vi.fn(
    () =>
      new Promise<Response>((resolve) => {
        const answer = answers.shift() ?? { status: 500, body: { error: "no more answers" } };
        calls.push(() => resolve(new Response(JSON.stringify(answer.body), { status: answer.status })));
      }),
  );
  vi.stubGlobal("fetch", fetchMock);
  /** Lets the oldest waiting request answer, and waits until the store has taken the answer in. */
  const release = async () => {
    const before = balanceNow();
    const answer = calls.shift();
    if (!answer) throw new Error("no request is waiting");
    answer();
    await vi.waitFor(() => expect(balanceNow()).not.toBe(before));
  };
  return { fetchMock, release };
}

describe("the balance store", () => {
  beforeEach(() => {
    resetBalanceForTest();
    // Only the refresh interval is faked: waiting for answers uses real timers.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  });
  afterEach(() => {
    resetBalanceForTest();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("fetches when first shown, then every REFRESH_MS while shown, and stops when nothing shows it", async () => {
    const { fetchMock, release } = fakeFetch([
      { status: 200, body: view(90) },
      { status: 200, body: view(80) },
    ]);
    const seen: number[] = [];
    const stop = subscribeBalance(() => seen.push(balanceNow().data?.credits.remaining ?? -1));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await release();
    expect(balanceNow().data?.credits.remaining).toBe(90);
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await release();
    expect(seen).toEqual([90, 80]);
    stop();
    await vi.advanceTimersByTimeAsync(REFRESH_MS * 3);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("asked again while a fetch is under way, fetches once more after it, not in parallel", async () => {
    const { fetchMock, release } = fakeFetch([
      { status: 200, body: view(50) },
      { status: 200, body: view(40) },
    ]);
    void refreshBalance();
    void refreshBalance();
    void refreshBalance();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await release();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await release();
    expect(balanceNow().data?.credits.remaining).toBe(40);
  });

  it("keeps the last good figure when a fetch fails, with the error beside it", async () => {
    const { release } = fakeFetch([
      { status: 200, body: view(70) },
      { status: 401, body: { error: "Sign in first" } },
    ]);
    void refreshBalance();
    await release();
    void refreshBalance();
    await release();
    expect(balanceNow().data?.credits.remaining).toBe(70);
    expect(balanceNow().error?.message).toBe("Sign in first");
  });

  it("says why when there never was a figure", async () => {
    const { release } = fakeFetch([{ status: 200, body: { credits: null } }]);
    void refreshBalance();
    await release();
    expect(balanceNow().data).toBeUndefined();
    expect(balanceNow().error?.message).toBe("Balance unavailable");
  });
});
