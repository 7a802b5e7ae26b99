/**
 * Flattens a loaded model's triangles for the print panel off the page's thread: for a
 * 2M-triangle display copy that is about 200 ms of work, which ran right after full detail was
 * drawn. Small models are flattened on the page (a worker's start costs more).
 */
import type { Object3D } from "three";
import { INLINE_TRIANGLES } from "./model-index";
import { extractTriangles, type ExtractedModel } from "./mesh-extract";
import { countMeshStats } from "./mesh-stats";
import { packedBuffers, packMeshes } from "./mesh-transfer";

/** The model's triangles in its root's frame; rejects on abort or a worker failure. */
export function extractInWorker(root: Object3D, signal: AbortSignal): Promise<ExtractedModel> {
  if (countMeshStats(root).triangles < INLINE_TRIANGLES || typeof Worker === "undefined") return Promise.resolve(extractTriangles(root));
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./mesh-extract.worker.ts", import.meta.url), { type: "module" });
    const stop = () => {
      worker.terminate();
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
    worker.onmessage = (e: MessageEvent<ExtractedModel>) => {
      signal.removeEventListener("abort", stop);
      worker.terminate();
      resolve(e.data);
    };
    worker.onerror = (e) => {
      signal.removeEventListener("abort", stop);
      worker.terminate();
      reject(new Error(e.message || "flattening the model failed"));
    };
    const packed = packMeshes(root);
    worker.postMessage(packed, packedBuffers(packed));
  });
}
