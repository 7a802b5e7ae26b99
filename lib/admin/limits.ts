/** The largest allowance an admin may set. */
export const MAX_ALLOWANCE = 1_000_000;

export type AdminActionState = { status: "idle" } | { status: "ok" | "error"; message: string };
