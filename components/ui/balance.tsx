"use client";

import { useQuery } from "@tanstack/react-query";

/** The credit balance, shared by every component that asks for it. */
export function useBalance() {
  return useQuery({
    queryKey: ["balance"],
    queryFn: async (): Promise<number> => {
      const res = await fetch("/api/balance");
      const body = (await res.json()) as { balance?: number; error?: string };
      if (!res.ok || body.balance === undefined) throw new Error(body.error ?? "Balance unavailable");
      return body.balance;
    },
    refetchInterval: 15_000,
  });
}

export function Balance() {
  const { data, error } = useBalance();
  if (error) return <span title={error.message}>balance unavailable</span>;
  return <span data-testid="balance">{data === undefined ? "…" : `${data} credits`}</span>;
}
