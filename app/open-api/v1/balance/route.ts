import { handleBalance } from "@/lib/engine/handlers/balance";
import { otherMethods } from "@/lib/engine/handlers/methods";

export const GET = handleBalance;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
