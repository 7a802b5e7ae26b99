/**
 * Runs the print analysis in web workers: a 2M-triangle display copy takes seconds to weld,
 * count, index and ray-cast, which must not freeze the page. One worker builds the spatial index
 * while a second counts (large models, two cores or more), then each searches half of the
 * triangles' walls through the index; smaller models use one worker for all. The mesh is copied
 * to the workers (the page keeps its arrays for the export and the pick). The index built is
 * handed to the page's measuring pick (model-index.ts); when the page already has one it is sent
 * instead of built again. The workers end after their last answer, an error or the abort.
 */
import { analyseMesh, type MeshAnalysis, type MeshInput } from "./mesh-analysis";
import type { MeshIndexData } from "./mesh-index";
import type { AnalysisAnswer, ThinRequest } from "./analysis-steps";
import { expectIndex, inlineModel, knownIndex, modelIndex, startAnalysisWorker } from "./model-index";
import { placeThickness, searchedThickness } from "./wall-figures";

export interface AnalysisCallbacks {
  onAnalysis(analysis: MeshAnalysis): void;
  /** Each triangle's wall thickness in model units (wallThickness), searched up to `searched`. */
  onThickness(thickness: Float32Array, searched: number): void;
  onError(message: string): void;
}

/** From this many triangles the analysis is shared by two workers (below, a second worker's start and copy cost more than it saves). */
const SHARED_TRIANGLES = 200_000;

/** Whether `triangles` are analysed by two workers on this machine. */
export function sharedAnalysis(triangles: number, cores = globalThis.navigator?.hardwareConcurrency ?? 1): boolean {
  return triangles >= SHARED_TRIANGLES && cores >= 2;
}

/**
 * Analyses `input`, off the page's thread for large models; nothing is reported after the abort.
 * `shared`: whether two workers share the work (by default from the model's size and the cores).
 */
export function analyseInWorker(input: MeshInput, signal: AbortSignal, report: AnalysisCallbacks, shared?: boolean): void {
  if (inlineModel(input)) {
    const analysis = analyseMesh(input);
    report.onAnalysis(analysis);
    const searched = searchedThickness(analysis);
    // The search and the index (three-mesh-bvh) load with the first model that needs them, not with the panel.
    void Promise.all([modelIndex(input), import("./wall-thickness")]).then(([index, { wallThickness }]) =>
      report.onThickness(wallThickness(input, searched, index), searched),
    );
    return;
  }
  const triangles = Math.floor(input.indices.length / 3);
  const twoWorkers = shared ?? sharedAnalysis(triangles);
  const known = knownIndex(input);
  // The index the first worker builds becomes the page's, for the measuring pick.
  let indexed: { resolve(data: MeshIndexData): void; reject(reason: unknown): void } | null = null;
  if (!known)
    expectIndex(
      input,
      new Promise<MeshIndexData>((resolve, reject) => {
        indexed = { resolve, reject };
      }),
    );
  const workers: Worker[] = [];
  const stop = (reason: unknown) => {
    for (const w of workers) w.terminate();
    indexed?.reject(reason);
    indexed = null;
  };
  signal.addEventListener("abort", () => stop(signal.reason), { once: true });

  let analysis: MeshAnalysis | null = null;
  /** The index's buffers on the page: sent (copied) to a worker that did not build it. */
  let index: MeshIndexData | null = null;
  let searching = false;
  const thickness = new Float32Array(triangles);
  let searchesLeft = twoWorkers ? 2 : 1;

  const search = () => {
    if (searching || !analysis || !index || signal.aborted) return;
    searching = true;
    const searched = searchedThickness(analysis);
    const half = twoWorkers ? Math.ceil(triangles / 2) : triangles;
    workers.forEach((w, i) => {
      const [from, to] = i === 0 ? [0, half] : [half, triangles];
      const built = i === 0 && !known;
      const request: ThinRequest = built ? { thin: { searched, from, to } } : { thin: { searched, from, to }, index: index ?? undefined };
      w.postMessage(request);
    });
  };
  const listen = (w: Worker) => {
    w.onmessage = (e: MessageEvent<AnalysisAnswer>) => {
      if (signal.aborted) return;
      if ("analysis" in e.data) {
        analysis = e.data.analysis;
        report.onAnalysis(analysis);
      } else if ("index" in e.data) {
        index = e.data.index;
        indexed?.resolve(index);
        indexed = null;
      } else {
        w.terminate();
        if (index) placeThickness(thickness, e.data.thickness, index.order, e.data.from);
        if (--searchesLeft === 0 && analysis) report.onThickness(thickness, searchedThickness(analysis));
        return;
      }
      search();
    };
    w.onerror = (e) => {
      e.preventDefault();
      const message = e.message || "the analysis failed";
      stop(new Error(message));
      if (!signal.aborted) report.onError(message);
    };
  };

  // The first worker builds the index (or is sent the page's) and counts unless a second one does.
  const first = startAnalysisWorker({ input, counts: !twoWorkers, build: !known, keep: true });
  workers.push(first);
  listen(first);
  if (twoWorkers) {
    const second = startAnalysisWorker({ input, counts: true });
    workers.push(second);
    listen(second);
  }
  known?.then(
    (data) => {
      index = data;
      search();
    },
    (error: unknown) => {
      stop(error);
      if (!signal.aborted) report.onError("the model could not be indexed");
    },
  );
}
