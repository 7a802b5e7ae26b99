import { BufferAttribute, BufferGeometry, Group, Mesh } from "three";
import { describe, expect, it } from "vitest";
import { analyseMesh } from "./mesh-analysis";
import { cubeSoup } from "./mesh-analysis.test-helpers";
import { extractTriangles, printParts } from "./mesh-extract";

/** A unit cube mesh, unindexed (three corners per triangle, as STL loaders give). */
function cubeMesh(name: string): Mesh {
  const geometry = new BufferGeometry().setAttribute("position", new BufferAttribute(new Float32Array(cubeSoup().flat()), 3));
  const mesh = new Mesh(geometry);
  mesh.name = name;
  return mesh;
}

describe("extractTriangles", () => {
  it("flattens every mesh into the root's frame and keeps each as a part", () => {
    const root = new Group();
    root.position.set(50, 0, 0); // the viewer's centring moves the root: the frame is the root's own
    const upright = new Group();
    upright.rotation.x = -Math.PI / 2; // a Z-up format turned upright
    const body = cubeMesh("body");
    const arm = cubeMesh("arm");
    arm.position.set(3, 0, 0);
    arm.scale.set(2, 2, 2);
    upright.add(body, arm);
    root.add(upright);

    const model = extractTriangles(root);
    expect(model.parts.map((p) => [p.name, p.indexCount])).toEqual([
      ["body", 36],
      ["arm", 36],
    ]);
    expect(model.min.map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0, 0, -2]);
    expect(model.max.map((v) => Math.round(v * 1e6) / 1e6)).toEqual([5, 2, 0]);
    const whole = analyseMesh(model);
    expect(whole).toMatchObject({ shells: 2, boundaryEdges: 0, nonManifoldEdges: 0 });
    expect(whole.volume).toBeCloseTo(9, 4);

    const parts = printParts(model);
    expect(parts.map((p) => analyseMesh(p).volume)).toEqual([expect.closeTo(1, 4), expect.closeTo(8, 4)]);
  });
});
