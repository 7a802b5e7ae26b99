import { handleSubmitTask } from "@/lib/engine/handlers/create";

export const POST = handleSubmitTask;
