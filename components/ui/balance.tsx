"use client";

import { useQuery } from "@tanstack/react-query";
import { spendable, type BalanceView } from "@/lib/credits/balance-view";

/** The user's credits (and, for admins, the service account's), shared by every component that asks. */
export function useBalance() {
  return useQuery({
    queryKey: ["balance"],
    queryFn: async (): Promise<BalanceView> => {
      const res = await fetch("/api/balance");
      const body = (await res.json()) as Partial<BalanceView> & { error?: string };
      if (!res.ok || !body.credits || !body.role) throw new Error(body.error ?? "Balance unavailable");
      return body as BalanceView;
    },
    refetchInterval: 15_000,
  });
}

/** What the user may spend on a task (undefined while unknown). */
export function useSpendable(): number | undefined {
  const { data } = useBalance();
  return data ? spendable(data) : undefined;
}

export function Balance() {
  const { data, error } = useBalance();
  if (error) return <span title={error.message}>balance unavailable</span>;
  if (!data) return <span data-testid="balance">…</span>;
  if (data.role === "admin") {
    if (data.service === undefined) return <span title={data.serviceError}>service balance unavailable</span>;
    return (
      <span title="The service account's balance, which every task is paid from">
        <span data-testid="balance">{data.service} credits</span> in the service account
      </span>
    );
  }
  const { allowance, spent } = data.credits;
  return (
    <span title={`${spent} of your ${allowance}-credit allowance spent`}>
      <span data-testid="balance">{data.credits.remaining} credits</span> left
    </span>
  );
}
