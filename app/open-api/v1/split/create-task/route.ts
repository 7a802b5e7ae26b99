import { handleSplitCreate } from "@/lib/engine/handlers/create";

export const POST = handleSplitCreate;
