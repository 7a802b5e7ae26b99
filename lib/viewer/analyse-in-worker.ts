/**
 * Runs the print analysis in a web worker: a 2M-triangle display copy takes seconds to weld,
 * sort and ray-cast, which must not freeze the page. The input is copied to the worker (the
 * page keeps its arrays for the export); the worker ends after its last answer or the abort.
 */
import { INLINE_TRIANGLES } from "./inline-triangles";
import { analyseMesh, type MeshAnalysis, type MeshInput } from "./mesh-analysis";
import { searchedThickness, wallThickness } from "./wall-thickness";

export interface AnalysisCallbacks {
  onAnalysis(analysis: MeshAnalysis): void;
  /** Each triangle's wall thickness in model units (wallThickness), searched up to `searched`. */
  onThickness(thickness: Float32Array, searched: number): void;
  onError(message: string): void;
}

type WorkerAnswer = { analysis: MeshAnalysis } | { thickness: Float32Array };

/** Analyses `input`, off the page's thread for large models; nothing is reported after the abort. */
export function analyseInWorker(input: MeshInput, signal: AbortSignal, report: AnalysisCallbacks): void {
  if (input.indices.length / 3 < INLINE_TRIANGLES || typeof Worker === "undefined") {
    const analysis = analyseMesh(input);
    report.onAnalysis(analysis);
    const searched = searchedThickness(analysis);
    report.onThickness(wallThickness(input, searched), searched);
    return;
  }
  const worker = new Worker(new URL("./mesh-analysis.worker.ts", import.meta.url), { type: "module" });
  signal.addEventListener("abort", () => worker.terminate(), { once: true });
  let searched = 0;
  worker.onmessage = (e: MessageEvent<WorkerAnswer>) => {
    if (signal.aborted) return;
    if ("analysis" in e.data) {
      searched = searchedThickness(e.data.analysis);
      report.onAnalysis(e.data.analysis);
    } else {
      worker.terminate();
      report.onThickness(e.data.thickness, searched);
    }
  };
  worker.onerror = (e) => {
    worker.terminate();
    if (!signal.aborted) report.onError(e.message || "the analysis failed");
  };
  worker.postMessage(input);
}
