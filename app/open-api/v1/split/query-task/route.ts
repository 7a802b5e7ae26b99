import { TOKEN_OR_BEARER } from "@/lib/engine/handlers/common";
import { handleQuery } from "@/lib/engine/handlers/query";
import { otherMethods } from "@/lib/engine/handlers/methods";

export const GET = (request: Request) => handleQuery(request, "split", TOKEN_OR_BEARER);
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
