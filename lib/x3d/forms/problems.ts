/**
 * A form's problems by field, worded by the error catalogue, so the form and the service say
 * the same thing. Pure; safe to import from client components.
 */
import type { Problem } from "../endpoints/read";
import { userMessage } from "../errors";

export type Problems = Partial<Record<string, string>>;

/** Problems by field, worded by the catalogue; the first problem of a field wins. */
export function byField(problems: readonly Problem[]): Problems {
  const out: Problems = {};
  for (const p of problems) out[p.field] ??= userMessage(p.code);
  return out;
}
