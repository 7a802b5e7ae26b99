/**
 * Analyses a mesh off the page's thread. The message is a MeshInput; the answers are its
 * MeshAnalysis, then its wall thicknesses (slower: one ray per triangle).
 */
import { analyseMesh, type MeshInput } from "./mesh-analysis";
import { searchedThickness, wallThickness } from "./wall-thickness";

addEventListener("message", (e: MessageEvent<MeshInput>) => {
  const analysis = analyseMesh(e.data);
  postMessage({ analysis });
  const thickness = wallThickness(e.data, searchedThickness(analysis));
  postMessage({ thickness }, { transfer: [thickness.buffer] });
});
