import { describe, expect, it } from "vitest";
import { costsWithOverrides } from "./cost-overrides";
import { DEFAULT_COSTS } from "./costs";

describe("costsWithOverrides", () => {
  it("is the published table when nothing is overridden", () => {
    expect(costsWithOverrides(undefined)).toBe(DEFAULT_COSTS);
    expect(costsWithOverrides("")).toBe(DEFAULT_COSTS);
  });

  it("replaces only the entries given", () => {
    const costs = costsWithOverrides(JSON.stringify({ imageTo3d: { "x3dv1.5:512": [1, 2, 3] }, split: 7 }));
    expect(costs.imageTo3d["x3dv1.5:512"]).toEqual([1, 2, 3]);
    expect(costs.imageTo3d["x3dv1.5:1024"]).toEqual(DEFAULT_COSTS.imageTo3d["x3dv1.5:1024"]);
    expect(costs.split).toBe(7);
    expect(costs.depth).toBe(DEFAULT_COSTS.depth);
    expect(costs.segmentation).toBe(DEFAULT_COSTS.segmentation);
  });

  it("refuses entries of the wrong shape, naming the variable", () => {
    expect(() => costsWithOverrides(JSON.stringify({ split: -1 }))).toThrow(/^X3D_ENGINE_COSTS: /);
    expect(() => costsWithOverrides(JSON.stringify({ imageTo3d: { "x3dv1.5:512": [1, 2] } }))).toThrow(/^X3D_ENGINE_COSTS: /);
  });
});
