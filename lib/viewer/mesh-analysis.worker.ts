/**
 * Analyses a mesh off the page's thread. The message is an AnalysisRequest; the answers are its
 * MeshAnalysis, then its spatial index when it was built here (a copy, for the page's measuring
 * pick), then its wall thicknesses (one ray per triangle through the index). An `indexOnly`
 * request answers the index alone.
 */
import { analyseMesh, type MeshAnalysis, type MeshInput } from "./mesh-analysis";
import { buildMeshIndex, meshIndexBuffers, meshIndexData, meshIndexFrom, type MeshIndexData } from "./mesh-index";
import { searchedThickness, wallThickness } from "./wall-thickness";

export interface AnalysisRequest {
  input: MeshInput;
  /** The model's index when the page already has one (then it is not built again). */
  index?: MeshIndexData;
  /** Only build the index and answer it. */
  indexOnly?: boolean;
}

export type AnalysisAnswer = { analysis: MeshAnalysis } | { index: MeshIndexData } | { thickness: Float32Array };

const answer = (message: AnalysisAnswer, transfer: ArrayBuffer[] = []) => postMessage(message, { transfer });

addEventListener("message", (e: MessageEvent<AnalysisRequest>) => {
  const { input, index: given, indexOnly } = e.data;
  const analysis = indexOnly ? null : analyseMesh(input);
  if (analysis) answer({ analysis });
  const index = given ? meshIndexFrom(input, given) : buildMeshIndex(input);
  if (!given) {
    const data = meshIndexData(index, !indexOnly);
    answer({ index: data }, meshIndexBuffers(data));
  }
  if (!analysis) return;
  const thickness = wallThickness(input, searchedThickness(analysis), index);
  answer({ thickness }, [thickness.buffer as ArrayBuffer]);
});
