"use client";

import { Coins } from "lucide-react";
import { spendable } from "@/lib/credits/balance-view";
import { useBalance } from "./balance-store";

/** What the user may spend on a task (undefined while unknown). */
export function useSpendable(): number | undefined {
  const { data } = useBalance();
  return data ? spendable(data) : undefined;
}

/** The credits in the header, one short line: "N credits" (the service account's, for admins), the rest in its tooltip. */
export function Balance() {
  const { data, error } = useBalance();
  if (error && !data) return <span title={error.message}>balance unavailable</span>;
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
