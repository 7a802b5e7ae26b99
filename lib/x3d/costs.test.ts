import { describe, expect, it } from "vitest";
import { DEFAULT_COSTS, imageTo3dCost, matrixPrices, type CostTable } from "./costs";
import { MODEL_INFO, MODELS, RESOLUTIONS, type CostTriple, type RequestType } from "./options";

describe("image-to-3D prices", () => {
  it("are the matrix's prices of each model's resolutions, keyed model:resolution", () => {
    expect(DEFAULT_COSTS.imageTo3d).toEqual({
      "x3dv1.5:512": [5, 15, 15],
      "x3dv1.5:1024": [10, 20, 20],
      "x3dv1.5:1536": [40, 50, 50],
      "x3dv1.5:1536pro": [60, 70, 70],
      "x3dv2.0:1536": [40, 50, 50],
      "x3dv2.0:1536pro": [60, 70, 70],
      "x3dv2.1:1536fast": [40, 50, 50],
      "x3dv2.1:1536pro": [60, 70, 70],
      "x3dv3.0:2048quality": [80, 90, 90],
      "x3dv3.0:2048master": [100, 110, 110],
      "scene-portraitv1.5:1536": [40, 50, 50],
      "scene-portraitv2.0:1536pro": [40, 50, 50],
      "scene-portraitv2.1:1536profast": [40, 50, 50],
      "scene-portraitv2.1:1536pro": [40, 50, 50],
    });
  });

  it("leave out a resolution a model lists without a price", () => {
    const info = {
      ...MODEL_INFO,
      "x3dv2.0": { ...MODEL_INFO["x3dv2.0"], resolutions: [...MODEL_INFO["x3dv2.0"].resolutions, "512" as const] },
    };
    const prices = matrixPrices(info);
    expect(prices["x3dv2.0:512"]).toBeUndefined();
    expect(Object.keys(prices)).toEqual(Object.keys(DEFAULT_COSTS.imageTo3d));
  });

  it("charge each request type its own entry: geometry, texture, geometry and texture", () => {
    for (const model of MODELS)
      for (const resolution of MODEL_INFO[model].resolutions) {
        const triple = MODEL_INFO[model].prices[resolution] as CostTriple;
        for (const requestType of [1, 2, 3] as RequestType[]) {
          expect(imageTo3dCost(DEFAULT_COSTS, model, resolution, requestType), `${model} ${resolution} ${requestType}`).toBe(
            triple[requestType - 1],
          );
        }
      }
    expect(imageTo3dCost(DEFAULT_COSTS, "x3dv1.5", "512", 1)).toBe(5);
    expect(imageTo3dCost(DEFAULT_COSTS, "x3dv1.5", "512", 2)).toBe(15);
    expect(imageTo3dCost(DEFAULT_COSTS, "x3dv3.0", "2048master", 3)).toBe(110);
  });

  it("have no price for a pair the matrix does not offer", () => {
    const offered = new Set(Object.keys(DEFAULT_COSTS.imageTo3d));
    for (const model of MODELS)
      for (const resolution of RESOLUTIONS)
        if (!offered.has(`${model}:${resolution}`)) expect(imageTo3dCost(DEFAULT_COSTS, model, resolution, 3)).toBeUndefined();
  });

  it("read the table they are given", () => {
    const table: CostTable = { ...DEFAULT_COSTS, imageTo3d: { "x3dv3.0:2048quality": [1, 2, 3] } };
    expect(imageTo3dCost(table, "x3dv3.0", "2048quality", 2)).toBe(2);
    expect(imageTo3dCost(table, "x3dv3.0", "2048master", 2)).toBeUndefined();
  });
});

describe("the other tasks", () => {
  it("cost a flat 20 credits each", () => {
    expect([DEFAULT_COSTS.split, DEFAULT_COSTS.depth, DEFAULT_COSTS.segmentation]).toEqual([20, 20, 20]);
  });
});
