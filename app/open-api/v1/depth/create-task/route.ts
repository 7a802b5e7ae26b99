import { handleDepthCreate } from "@/lib/engine/handlers/create";

export const POST = handleDepthCreate;
