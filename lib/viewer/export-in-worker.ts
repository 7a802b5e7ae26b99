/** Writes an STL or 3MF for printing in a web worker (print-export.worker.ts), so the page never freezes. */
import type { PrintPart } from "./print-export";
import type { ExportRequest } from "./print-export.worker";

/** The file's bytes; the parts are copied to the worker, the page keeps its own. */
export function exportInWorker(request: ExportRequest): Promise<Uint8Array> {
  if (typeof Worker === "undefined") {
    // The writers (and fflate's zip) load on the first download, not with the print panel.
    return import("./print-export").then(({ stlBinary, threeMf, toPrintFrame }) => {
      const parts: PrintPart[] = toPrintFrame(request.parts, request.scale);
      return request.format === "stl" ? stlBinary(parts) : threeMf(parts);
    });
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./print-export.worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (e: MessageEvent<Uint8Array>) => {
      worker.terminate();
      resolve(e.data);
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(e.message || "the file could not be written"));
    };
    worker.postMessage(request);
  });
}
