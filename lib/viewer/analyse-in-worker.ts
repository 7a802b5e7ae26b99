/**
 * Runs the print analysis in a web worker: a 2M-triangle display copy takes seconds to weld,
 * count, index and ray-cast, which must not freeze the page. The input is copied to the worker
 * (the page keeps its arrays for the export and the pick); the spatial index built there is
 * handed to the page's measuring pick (model-index.ts), or, when the page already has one, sent
 * along instead of built again. The worker ends after its last answer or the abort.
 */
import { analyseMesh, type MeshAnalysis, type MeshInput } from "./mesh-analysis";
import { meshIndexBuffers, meshIndexData, type MeshIndexData } from "./mesh-index";
import type { AnalysisAnswer } from "./mesh-analysis.worker";
import { expectIndex, inlineModel, knownIndex, modelIndex, startAnalysisWorker } from "./model-index";
import { searchedThickness, wallThickness } from "./wall-thickness";

export interface AnalysisCallbacks {
  onAnalysis(analysis: MeshAnalysis): void;
  /** Each triangle's wall thickness in model units (wallThickness), searched up to `searched`. */
  onThickness(thickness: Float32Array, searched: number): void;
  onError(message: string): void;
}

/** Analyses `input`, off the page's thread for large models; nothing is reported after the abort. */
export function analyseInWorker(input: MeshInput, signal: AbortSignal, report: AnalysisCallbacks): void {
  if (inlineModel(input)) {
    const analysis = analyseMesh(input);
    report.onAnalysis(analysis);
    const searched = searchedThickness(analysis);
    void modelIndex(input).then((index) => report.onThickness(wallThickness(input, searched, index), searched));
    return;
  }
  const known = knownIndex(input);
  let indexed: { resolve(data: MeshIndexData): void; reject(reason: unknown): void } | null = null;
  // The index this worker builds is the page's, for the measuring pick.
  const expect = () =>
    expectIndex(
      input,
      new Promise<MeshIndexData>((resolve, reject) => {
        indexed = { resolve, reject };
      }),
    );
  const fail = (reason: unknown) => {
    indexed?.reject(reason);
    indexed = null;
  };
  let worker: Worker | null = null;
  signal.addEventListener(
    "abort",
    () => {
      worker?.terminate();
      fail(signal.reason);
    },
    { once: true },
  );
  let searched = 0;
  const start = (index?: MeshIndexData) => {
    if (signal.aborted) return;
    worker = startAnalysisWorker({ input, index }, index ? meshIndexBuffers(index) : []);
    const w = worker;
    w.onmessage = (e: MessageEvent<AnalysisAnswer>) => {
      if (signal.aborted) return;
      if ("analysis" in e.data) {
        searched = searchedThickness(e.data.analysis);
        report.onAnalysis(e.data.analysis);
      } else if ("index" in e.data) {
        indexed?.resolve(e.data.index);
        indexed = null;
      } else {
        w.terminate();
        report.onThickness(e.data.thickness, searched);
      }
    };
    w.onerror = (e) => {
      w.terminate();
      fail(new Error(e.message || "the analysis failed"));
      if (!signal.aborted) report.onError(e.message || "the analysis failed");
    };
  };
  if (!known) {
    expect();
    start();
  } else
    known.then(
      (index) => start(meshIndexData(index, true)),
      () => {
        if (signal.aborted) return;
        expect();
        start();
      },
    );
}
