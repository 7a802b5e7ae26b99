export interface Credits {
  allowance: number;
  spent: number;
  remaining: number;
}

/** /api/balance's answer. */
export interface BalanceView {
  role: "admin" | "artist";
  credits: Credits;
  /** The service account's balance: admins only. */
  service?: number;
  serviceError?: string;
}

/**
 * What the user may spend on a task: an artist, what is left of their allowance; an admin, the
 * service account's balance (admins are not held to an allowance).
 */
export const spendable = (view: BalanceView): number | undefined => (view.role === "admin" ? view.service : view.credits.remaining);
