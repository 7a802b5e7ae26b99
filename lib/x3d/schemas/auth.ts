/** Schemas of auth/token (open-api.md 4.1) and balance (4.4). Safe to import from client components. */
import { z } from "zod";
import { envelope } from "./common";

/** What the token request proves with HTTP Basic; the request itself has no body. */
export const ClientCredentialsSchema = z.object({
  clientId: z.string().min(1, "client id is required"),
  clientSecret: z.string().min(1, "client secret is required"),
});

const TokenDataSchema = z.object({
  accessToken: z.string().min(1),
  tokenType: z.string(),
  nonce: z.string(),
});
export type TokenData = z.infer<typeof TokenDataSchema>;

/** The token answer also repeats `msg` as `message` (addendum). */
export const TokenResponseSchema = envelope(TokenDataSchema).extend({ message: z.string().optional() });

const BalanceSchema = z.object({ totalBalance: z.number() });
export type Balance = z.infer<typeof BalanceSchema>;

export const BalanceResponseSchema = envelope(BalanceSchema);
