import { BEARER } from "@/lib/engine/handlers/common";
import { handleQuery } from "@/lib/engine/handlers/query";

export const GET = (request: Request) => handleQuery(request, "image-to-3d", BEARER);
