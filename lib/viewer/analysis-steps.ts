/**
 * What an analysis worker does, step by step (mesh-analysis.worker.ts runs it; tests run it in
 * place of a worker). The first message, an AnalysisRequest, hands over the mesh: the worker
 * answers its MeshAnalysis (`counts`) and builds its spatial index (`build`), answering a copy for
 * the page's measuring pick (`keep`: the worker goes on using it) or the index itself, and a
 * second copy for the other worker (`share`); then, when walls are to follow (`walls`), it sets
 * the search up while it waits (with the index built here; else, without WebAssembly's SIMD, the
 * normals the walk in JavaScript needs). ThinRequests then ask for stretches of triangles' wall
 * thicknesses (stretches of the index's order), searched through the index (sent along with the
 * first when it was built elsewhere): two workers share the rays of a large model, stretch by
 * stretch.
 */
import type { MeshBVH } from "three-mesh-bvh";
import { analyseMesh, type MeshAnalysis, type MeshInput } from "./mesh-analysis";
import { buildMeshIndex, meshIndexBuffers, meshIndexData, meshIndexFrom, type MeshIndexData } from "./mesh-index";
import { triangleNormals, wallSearch, type WallSearch } from "./wall-thickness";
import { wallWalkInWasm } from "./wall-walk";

export interface AnalysisRequest {
  input: MeshInput;
  counts?: boolean;
  build?: boolean;
  /** Keep using the index built here (then the page gets a copy). */
  keep?: boolean;
  /** Answer a second copy of the index built here, for another worker (the page passes it on without copying it again). */
  share?: boolean;
  /** Wall searches follow: the normals they need are worked out after the rest. */
  walls?: boolean;
}

export interface ThinRequest {
  /** The triangles at places `from` to `to` of the index's order, searched up to `searched`. */
  thin: { searched: number; from: number; to: number };
  /** The model's index, when this worker did not build it. */
  index?: MeshIndexData;
}

/** `thickness`: wallThicknessInOrder's answer for the places from `from`; `share`: the index's copy for another worker. */
export type AnalysisAnswer =
  { analysis: MeshAnalysis } | { index: MeshIndexData; share?: MeshIndexData } | { thickness: Float32Array; from: number };

/** One worker's handler of its messages; `answer` posts back, transferring `transfer`. */
export function analysisSteps(
  answer: (message: AnalysisAnswer, transfer: ArrayBuffer[]) => void,
): (message: AnalysisRequest | ThinRequest) => void {
  let input: MeshInput | null = null;
  let index: MeshBVH | null = null;
  let normals: Float32Array | undefined;
  let search: WallSearch | null = null;
  return (message) => {
    if ("input" in message) {
      const { counts, build, keep, share, walls } = message;
      input = message.input;
      if (counts) answer({ analysis: analyseMesh(input) }, []);
      if (build) {
        index = buildMeshIndex(input);
        const data = meshIndexData(index, keep);
        const copy = share ? meshIndexData(index, true) : undefined;
        answer({ index: data, share: copy }, [...meshIndexBuffers(data), ...(copy ? meshIndexBuffers(copy) : [])]);
        // Without `keep` the index's own buffers went to the page.
        if (!keep) index = null;
      }
      // Before the page asks for the first stretch: the search's set-up (its tree and memory in
      // WebAssembly) when this worker has the index, else what the walk in JavaScript needs.
      if (walls) {
        if (index) search = wallSearch(input, index);
        else if (!wallWalkInWasm()) normals = triangleNormals(input);
      }
      return;
    }
    if (!input) throw new Error("no mesh to search");
    if (message.index) {
      index = meshIndexFrom(input, message.index);
      search = null;
    }
    if (!index) throw new Error("no index to search the mesh with");
    search ??= wallSearch(input, index, normals);
    const { searched, from, to } = message.thin;
    const thickness = search(searched, from, to);
    answer({ thickness, from }, [thickness.buffer as ArrayBuffer]);
  };
}
