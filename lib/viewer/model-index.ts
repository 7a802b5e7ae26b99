/**
 * One spatial index per model on the page, shared by the print analysis and the measuring pick:
 * built in a worker (the analysis worker when it runs first, else one of its own) and handed over
 * as transferable buffers (mesh-index.ts). Keyed by the model's triangles object, so a new model
 * gets a new index and an old one goes with its model.
 */
import type { MeshBVH } from "three-mesh-bvh";
import type { AnalysisAnswer, AnalysisRequest } from "./analysis-steps";
import { INLINE_TRIANGLES } from "./inline-triangles";
import type { MeshInput } from "./mesh-analysis";
import type { MeshHit, MeshIndexData } from "./mesh-index";

/** The index's code (three-mesh-bvh), loaded with the first index the page needs, not with the print panel or the viewer. */
const indexCode = () => import("./mesh-index");

const indexes = new WeakMap<MeshInput, Promise<MeshBVH>>();
/** Index buffers an analysis worker built and handed over, made into a MeshBVH only when asked for (modelIndex). */
const handedOver = new WeakMap<MeshInput, Promise<MeshIndexData>>();

/** Starts an analysis worker on `request` (see mesh-analysis.worker.ts); the mesh is copied to it. */
export function startAnalysisWorker(request: AnalysisRequest): Worker {
  const worker = new Worker(new URL("./mesh-analysis.worker.ts", import.meta.url), { type: "module" });
  worker.postMessage(request);
  return worker;
}

/** True when `model` is small enough (or there are no workers) to be analysed and indexed on the page. */
export function inlineModel(model: MeshInput): boolean {
  return model.indices.length / 3 < INLINE_TRIANGLES || typeof Worker === "undefined";
}

/** The index of `model`, built once (in a worker for large models) and shared. */
export function modelIndex(model: MeshInput): Promise<MeshBVH> {
  const known = indexes.get(model);
  if (known) return known;
  const data = handedOver.get(model);
  if (data) {
    handedOver.delete(model);
    return settle(
      model,
      Promise.all([data, indexCode()]).then(([d, { meshIndexFrom }]) => meshIndexFrom(model, d)),
    );
  }
  if (inlineModel(model))
    return settle(
      model,
      indexCode().then(({ buildMeshIndex }) => buildMeshIndex(model)),
    );
  const built = new Promise<MeshBVH>((resolve, reject) => {
    const worker = startAnalysisWorker({ input: model, build: true });
    worker.onmessage = (e: MessageEvent<AnalysisAnswer>) => {
      if (!("index" in e.data)) return;
      worker.terminate();
      const data = e.data.index;
      resolve(indexCode().then(({ meshIndexFrom }) => meshIndexFrom(model, data)));
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(e.message || "the model could not be indexed"));
    };
  });
  return settle(model, built);
}

/** The buffers of the index `model` already has or is getting, if any (to send to a worker). */
export function knownIndex(model: MeshInput): Promise<MeshIndexData> | undefined {
  const data = handedOver.get(model);
  if (data) return data;
  return indexes.get(model)?.then(async (index) => (await indexCode()).meshIndexData(index));
}

/**
 * Records that an index of `model` is coming (from the analysis worker): `data` resolves to its
 * buffers, or rejects when that worker stopped first (then the next ask builds it anew). Kept as
 * buffers until the measuring pick asks for the index.
 */
export function expectIndex(model: MeshInput, data: Promise<MeshIndexData>): void {
  indexes.delete(model);
  handedOver.set(model, data);
  data.catch(() => {
    if (handedOver.get(model) === data) handedOver.delete(model);
  });
}

function settle(model: MeshInput, index: Promise<MeshBVH>): Promise<MeshBVH> {
  indexes.set(model, index);
  index.catch(() => {
    if (indexes.get(model) === index) indexes.delete(model);
  });
  return index;
}

/**
 * The measuring pick: the first triangle of `model` a ray meets (in the model's frame), through
 * its shared index (waiting for it the first time; asked again once if its builder stopped).
 */
export async function pickModel(
  model: MeshInput,
  origin: readonly [number, number, number],
  direction: readonly [number, number, number],
): Promise<MeshHit | null> {
  const index = await modelIndex(model).catch(() => modelIndex(model));
  return (await indexCode()).pickFirst(index, origin, direction);
}
