/**
 * zod schemas and types for every request and response of the x3d Open API (open-api.md and
 * its addendum), grouped by endpoint under ./schemas/. Safe to import from client components.
 */
export * from "./schemas/common";
export * from "./schemas/auth";
export * from "./schemas/image-to-3d";
export * from "./schemas/mesh-tasks";
export * from "./schemas/depth";
