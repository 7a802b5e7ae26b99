"use client";

import { useSyncExternalStore } from "react";
import type { BalanceView } from "@/lib/credits/balance-view";

/*
 * The header's balance, one per browser tab: fetched when the first component shows it, again
 * every REFRESH_MS while one does, and at once when something changed it (a task was charged,
 * refunded or refused: `refreshBalance`). A small store rather than a TanStack query, so that
 * the studio's frame loads no query library: pages that poll tasks bring that themselves.
 */

/** How often a shown balance is fetched again (the admin's service balance moves on its own). */
export const REFRESH_MS = 15_000;

export interface BalanceState {
  data?: BalanceView;
  error?: Error;
}

let state: BalanceState = {};
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let inFlight: Promise<void> | null = null;
let again = false;

function set(next: BalanceState) {
  state = next;
  for (const notify of [...listeners]) notify();
}

async function fetchBalance(): Promise<BalanceView> {
  const res = await fetch("/api/balance", { cache: "no-store" });
  const body = (await res.json().catch(() => ({}))) as Partial<BalanceView> & { error?: string };
  if (!res.ok || !body.credits || !body.role) throw new Error(body.error ?? "Balance unavailable");
  return body as BalanceView;
}

/**
 * Fetches the balance now. A fetch under way is not repeated in parallel: one more follows it,
 * since it may have been asked before the change. The last good figure stays while a fetch fails.
 */
export function refreshBalance(): Promise<void> {
  if (inFlight) {
    again = true;
    return inFlight;
  }
  inFlight = fetchBalance()
    .then(
      (data) => set({ data }),
      (error: unknown) =>
        set({ ...(state.data ? { data: state.data } : {}), error: error instanceof Error ? error : new Error(String(error)) }),
    )
    .finally(() => {
      inFlight = null;
      if (again) {
        again = false;
        void refreshBalance();
      }
    });
  return inFlight;
}

/** Listens to the balance: the first listener fetches it and starts the refresh timer, the last stops it. */
export function subscribeBalance(notify: () => void): () => void {
  listeners.add(notify);
  if (listeners.size === 1) {
    void refreshBalance();
    timer = setInterval(() => void refreshBalance(), REFRESH_MS);
  }
  return () => {
    listeners.delete(notify);
    if (listeners.size === 0) clearInterval(timer);
  };
}

const EMPTY: BalanceState = {};

/** The balance as last fetched (nothing yet on the server's render and before the first answer). */
export function useBalance(): BalanceState {
  return useSyncExternalStore(subscribeBalance, balanceNow, () => EMPTY);
}

/** The balance as last fetched. */
export function balanceNow(): BalanceState {
  return state;
}

/** For tests: forget the fetched balance. */
export function resetBalanceForTest() {
  clearInterval(timer);
  listeners.clear();
  state = {};
  inFlight = null;
  again = false;
}
