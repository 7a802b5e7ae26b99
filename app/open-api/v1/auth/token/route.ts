import { handleToken } from "@/lib/engine/handlers/token";
import { otherMethods } from "@/lib/engine/handlers/methods";

export const POST = handleToken;
export const { GET, PUT, DELETE, PATCH, OPTIONS } = otherMethods("POST");
