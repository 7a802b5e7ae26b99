/**
 * The service credentials the browser tests' server runs with; `npm test` also builds with
 * them in the environment, so a leak into a client bundle or a page would show up.
 */
import canary from "./canary.json" with { type: "json" };

export const CANARY_CLIENT_ID = canary.clientId;
export const CANARY_CLIENT_SECRET = canary.clientSecret;
