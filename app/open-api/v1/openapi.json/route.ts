import { openApiDocument } from "@/lib/x3d/endpoints/openapi";

/** The OpenAPI 3.1 document of this service, generated from the specs that validate its requests. */
export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
}
