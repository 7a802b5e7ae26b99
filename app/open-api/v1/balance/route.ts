import { handleBalance } from "@/lib/engine/handlers/balance";

export const GET = handleBalance;
