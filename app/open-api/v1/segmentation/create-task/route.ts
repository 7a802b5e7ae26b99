import { handleSegmentationCreate } from "@/lib/engine/handlers/create";

export const POST = handleSegmentationCreate;
