/** Flattens packed meshes (lib/viewer/mesh-transfer) off the page's thread and sends the result back. */
import { extractTriangles, type ExtractedModel } from "./mesh-extract";
import { unpackMeshes, type PackedMesh } from "./mesh-transfer";

addEventListener("message", (e: MessageEvent<PackedMesh[]>) => {
  const model: ExtractedModel = extractTriangles(unpackMeshes(e.data));
  postMessage(model, { transfer: [model.positions.buffer, model.indices.buffer] });
});
