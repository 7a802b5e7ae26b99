import { handleToken } from "@/lib/engine/handlers/token";

export const POST = handleToken;
