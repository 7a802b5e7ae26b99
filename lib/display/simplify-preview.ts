/** Triangle counting and the preview's simplification down to a triangle budget. */
import { type Document, Primitive } from "@gltf-transform/core";
import { compactPrimitive, simplify, weld } from "@gltf-transform/functions";
import { MeshoptSimplifier } from "meshoptimizer";

const { TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN } = Primitive.Mode;

function primitiveTriangles(prim: Primitive): number {
  const n = prim.getIndices()?.getCount() ?? prim.getAttribute("POSITION")?.getCount() ?? 0;
  const mode = prim.getMode();
  if (mode === TRIANGLES) return Math.floor(n / 3);
  if (mode === TRIANGLE_STRIP || mode === TRIANGLE_FAN) return Math.max(0, n - 2);
  return 0;
}

/** Triangles drawn by the document's scenes (a mesh counts once per node that shows it). */
export function countTriangles(doc: Document): number {
  let total = 0;
  for (const scene of doc.getRoot().listScenes()) {
    scene.traverse((node) => {
      for (const prim of node.getMesh()?.listPrimitives() ?? []) total += primitiveTriangles(prim);
    });
  }
  return total;
}

// Each pass continues from the last one's result. Borders stay locked first (parts that
// meet keep meeting); when seams or borders stop the simplifier short of the budget, they
// are released and the error allowance (a fraction of the mesh's radius) grows.
const PASSES = [
  { lockBorder: true, error: 0.01 },
  { lockBorder: false, error: 0.05 },
  { lockBorder: false, error: 1 },
] as const;

/**
 * Last resort, one that always reaches the target: meshoptimizer's sloppy simplifier (vertex
 * clustering, ignores topology) on every indexed triangle primitive.
 */
function sloppy(doc: Document, ratio: number): void {
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      const indices = prim.getIndices();
      const array = prim.getAttribute("POSITION")?.getArray();
      if (prim.getMode() !== TRIANGLES || !indices || !array) continue;
      const indexArray = indices.getArray();
      if (!indexArray) throw new Error("an index accessor without data");
      // Quantised positions (the display copy's) differ from the float ones by a uniform
      // scale only, which vertex clustering does not see.
      const position = array instanceof Float32Array ? array : Float32Array.from(array);
      const target = Math.floor((indices.getCount() / 3) * ratio) * 3;
      const [out] = MeshoptSimplifier.simplifySloppy(Uint32Array.from(indexArray), position, 3, null, target, 1);
      prim.setIndices(doc.createAccessor().setType("SCALAR").setArray(new Uint32Array(out)).setBuffer(indices.getBuffer()));
      if (indices.listParents().length === 1) indices.dispose(); // only the root still lists it
      compactPrimitive(prim);
    }
  }
}

/**
 * Flat-shaded primitives (a normal per facet, as STL stores them) share almost no vertices,
 * so the simplifier could move none of them. Their normals go: glTF viewers shade a
 * primitive without normals flat, the same look. Returns whether any went.
 */
function dropFacetNormals(doc: Document): boolean {
  let dropped = false;
  for (const prim of doc
    .getRoot()
    .listMeshes()
    .flatMap((m) => m.listPrimitives())) {
    const normal = prim.getAttribute("NORMAL");
    const indices = prim.getIndices();
    // Welded smooth meshes have about one vertex per 6 indices; unshared ones one per index.
    if (!normal || !indices || normal.getCount() * 2 < indices.getCount()) continue;
    prim.setAttribute("NORMAL", null);
    dropped = true;
  }
  return dropped;
}

/** Simplifies `doc` in place to at most `target` triangles (meshoptimizer, after weld). */
export async function simplifyTo(doc: Document, target: number): Promise<void> {
  await MeshoptSimplifier.ready;
  if (countTriangles(doc) > target && dropFacetNormals(doc)) await doc.transform(weld());
  for (const pass of PASSES) {
    const n = countTriangles(doc);
    if (n <= target) return;
    await doc.transform(simplify({ simplifier: MeshoptSimplifier, ratio: target / n, ...pass }));
  }
  for (let shrink = 1; countTriangles(doc) > target; shrink *= 0.9) {
    if (shrink < 0.5) throw new Error(`the preview could not be simplified to ${target} triangles`);
    sloppy(doc, (target / countTriangles(doc)) * shrink);
  }
}
