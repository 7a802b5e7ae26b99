import { handleSegmentationCreate } from "@/lib/engine/handlers/create";
import { otherMethods } from "@/lib/engine/handlers/methods";

export const POST = handleSegmentationCreate;
export const { GET, PUT, DELETE, PATCH, OPTIONS } = otherMethods("POST");
