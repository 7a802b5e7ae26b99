"use client";

import { useSpendable } from "@/components/ui/balance";
import { shortfall } from "@/lib/x3d/form-logic";

/** The task's cost beside the balance, and a warning before submitting when the balance is short. */
export function CostSummary({ cost }: { cost: number | undefined }) {
  const balance = useSpendable();
  const missing = shortfall(balance, cost);
  return (
    <div className="space-y-1 text-sm">
      <p className="text-foreground/85">
        <span data-testid="task-cost">{cost === undefined ? "Cost unknown for this choice" : `Cost: ${cost} credits`}</span>
        <span className="text-muted-foreground"> · You have: {balance === undefined ? "…" : `${balance} credits`}</span>
      </p>
      {missing > 0 && (
        <p role="alert" data-testid="balance-short" className="text-warning">
          Your credits are too low for this task: it costs {cost} credits and you have {balance} left.
        </p>
      )}
    </div>
  );
}
