/**
 * Runs the print analysis in web workers: a 2M-triangle display copy takes seconds to weld,
 * count, index and ray-cast, which must not freeze the page. One worker builds the spatial index
 * while a second counts (large models, two cores or more); then the walls are searched through
 * the index stretch by stretch, each worker asking for the next stretch when it is done with one,
 * so the worker that is free first takes more (the indexing worker starts on them while the other
 * still counts). Smaller models use one worker for all. The mesh is copied to the workers (the
 * page keeps its arrays for the export and the pick). The index built is handed to the page's
 * measuring pick (model-index.ts); when the page already has one it is sent instead of built
 * again. The workers end after the last stretch, an error or the abort.
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

/**
 * The fewest rays in a stretch of a shared search. Each stretch is a quarter of what is left
 * (each worker asks for the next when done with one): long stretches first, few round trips, and
 * short ones at the end, so the two workers end within a few milliseconds of each other.
 */
const STRETCH_MIN = 4096;

/** The box of an index's roots (its triangles' box). */
function indexBox(roots: readonly ArrayBuffer[]): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  for (const root of roots) {
    const f = new Float32Array(root, 0, 6);
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k] ?? 0, f[k] ?? 0);
      max[k] = Math.max(max[k] ?? 0, f[k + 3] ?? 0);
    }
  }
  return { min, max };
}

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
  /** How far walls are searched: from the index's box (the triangles' box), so no worker waits for the counts. */
  let searched = NaN;
  /** The workers that have the index (the one that built it, and those it was sent to). */
  const hasIndex = new Set<Worker>();
  const thickness = new Float32Array(triangles);
  /** The index's copy the building worker made for the other one (transferred on, not copied again). */
  let spare: MeshIndexData | undefined;
  let next = 0;
  let placed = 0;
  let reported = false;

  /** Asks `w` for the next stretch of walls, if any is left. */
  const ask = (w: Worker) => {
    if (!index || signal.aborted || next >= triangles) return;
    const from = next,
      to = twoWorkers ? Math.min(triangles, from + Math.max(STRETCH_MIN, Math.ceil((triangles - from) / 4))) : triangles;
    next = to;
    let sent: MeshIndexData | undefined;
    if (!hasIndex.has(w)) {
      sent = spare ?? index;
      spare = undefined;
    }
    const request: ThinRequest = { thin: { searched, from, to }, index: sent };
    hasIndex.add(w);
    // The spare moves on (its buffers transferred); the page's own index is copied.
    w.postMessage(request, sent && sent !== index ? [...sent.roots, sent.order.buffer as ArrayBuffer] : []);
  };
  const finish = () => {
    if (reported || !analysis || placed < triangles) return;
    reported = true;
    for (const w of workers) w.terminate();
    report.onThickness(thickness, searched);
  };
  const indexKnown = (data: MeshIndexData) => {
    index = data;
    searched = searchedThickness({ ...indexBox(data.roots), triangles });
    for (const w of workers) ask(w);
  };
  const listen = (w: Worker) => {
    w.onmessage = (e: MessageEvent<AnalysisAnswer>) => {
      if (signal.aborted) return;
      if ("analysis" in e.data) {
        analysis = e.data.analysis;
        report.onAnalysis(analysis);
        finish();
      } else if ("index" in e.data) {
        indexed?.resolve(e.data.index);
        indexed = null;
        spare = e.data.share;
        indexKnown(e.data.index);
      } else {
        if (index) placeThickness(thickness, e.data.thickness, index.order, e.data.from);
        placed += e.data.thickness.length;
        ask(w);
        finish();
      }
    };
    w.onerror = (e) => {
      e.preventDefault();
      const message = e.message || "the analysis failed";
      stop(new Error(message));
      if (!signal.aborted) report.onError(message);
    };
  };

  // The first worker builds the index (or is sent the page's) and counts unless a second one does.
  const first = startAnalysisWorker({ input, counts: !twoWorkers, build: !known, keep: true, share: twoWorkers, walls: true });
  workers.push(first);
  if (!known) hasIndex.add(first);
  listen(first);
  if (twoWorkers) {
    const second = startAnalysisWorker({ input, counts: true, walls: true });
    workers.push(second);
    listen(second);
  }
  known?.then(
    (data) => {
      if (!signal.aborted) indexKnown(data);
    },
    (error: unknown) => {
      stop(error);
      if (!signal.aborted) report.onError("the model could not be indexed");
    },
  );
}
