"use client";

import { Coins } from "lucide-react";
import { useSpendable } from "@/components/ui/balance";
import { shortfall } from "@/lib/x3d/costs";

const count = new Intl.NumberFormat("en-US");

/** The task's cost beside the balance on one line ("90 credits · you have 1,000"), and a warning when the balance is short. */
export function CostSummary({ cost }: { cost: number | undefined }) {
  const balance = useSpendable();
  const missing = shortfall(balance, cost);
  return (
    <div className="space-y-1.5 text-sm">
      <p className="flex items-center gap-2">
        <Coins className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        <span data-testid="task-cost" className="font-medium">
          {cost === undefined ? "Cost unknown for this choice" : `${count.format(cost)} credits`}
        </span>
        <span className="text-muted-foreground" data-testid="task-balance">
          · you have {balance === undefined ? "…" : count.format(balance)}
        </span>
      </p>
      {missing > 0 && (
        <p role="alert" data-testid="balance-short" className="text-warning">
          Your credits are too low for this task: it costs {cost} credits and you have {balance} left.
        </p>
      )}
    </div>
  );
}
