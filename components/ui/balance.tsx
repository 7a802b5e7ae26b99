"use client";

import { useQuery } from "@tanstack/react-query";
import { Coins } from "lucide-react";
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

/** The credits in the header, one short line: "N credits" (the service account's, for admins), the rest in its tooltip. */
export function Balance() {
  const { data, error } = useBalance();
  if (error) return <span title={error.message}>balance unavailable</span>;
  if (!data) return <span data-testid="balance">…</span>;
  if (data.role === "admin") {
    if (data.service === undefined) return <span title={data.serviceError}>service balance unavailable</span>;
    return (
      <span className="inline-flex items-center gap-1.5" title="The service account's balance, which every task is paid from">
        <Coins className="size-4" aria-hidden />
        <span data-testid="balance">{data.service} credits</span>
        <span className="hidden xl:inline">in the service account</span>
      </span>
    );
  }
  const { allowance, spent } = data.credits;
  return (
    <span className="inline-flex items-center gap-1.5" title={`${spent} of your ${allowance}-credit allowance spent`}>
      <Coins className="size-4" aria-hidden />
      <span data-testid="balance">{data.credits.remaining} credits</span>
      <span className="hidden sm:inline">left</span>
    </span>
  );
}
