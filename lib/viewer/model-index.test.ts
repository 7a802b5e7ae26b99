import { describe, expect, it } from "vitest";
import { cubeSoup, soupMesh } from "./mesh-analysis.test-helpers";
import { modelIndex, pickModel } from "./model-index";

describe("the model's shared index", () => {
  it("is built once per model and answers the measuring pick in the model's frame", async () => {
    const cube = soupMesh(cubeSoup(10));
    const first = modelIndex(cube);
    expect(modelIndex(cube)).toBe(first);
    expect(modelIndex(soupMesh(cubeSoup(10)))).not.toBe(first);
    // Down onto the top face (y = 10) of the 10 mm cube, and past it.
    expect(await pickModel(cube, [4, 50, 6], [0, -1, 0])).toMatchObject({ point: [4, 10, 6], distance: 40 });
    expect(await pickModel(cube, [40, 50, 6], [0, -1, 0])).toBeNull();
  });
});
