import { TOKEN_OR_BEARER } from "@/lib/engine/handlers/common";
import { handleQuery } from "@/lib/engine/handlers/query";

export const GET = (request: Request) => handleQuery(request, "split", TOKEN_OR_BEARER);
