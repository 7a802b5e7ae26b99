import { describe, expect, it } from "vitest";
import { DEFAULT_COSTS, imageTo3dCost, matrixPrices, shortfall, taskCost, type CostTable } from "./costs";
import { DEPTH_SPEC } from "./endpoints/depth";
import { SEGMENTATION_SPEC } from "./endpoints/segmentation";
import { SPLIT_SPEC } from "./endpoints/split";
import { SUBMIT_TASK_SPEC } from "./endpoints/submit-task";
import { formStart } from "./forms/endpoint-form";
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

describe("cost and balance", () => {
  it("prices image-to-3D by model, resolution and request type, texture as request type 2", () => {
    expect(taskCost({ kind: "image-to-3d", model: "x3dv1.5", resolution: "512", request_type: 1 })).toBe(5);
    expect(taskCost({ kind: "image-to-3d", model: "x3dv3.0", resolution: "2048master", request_type: 3 })).toBe(110);
    expect(taskCost({ kind: "texture", model: "x3dv3.0", resolution: "2048quality", request_type: 2 })).toBe(90);
    expect(taskCost({ kind: "image-to-3d", model: "x3dv3.0", resolution: "512", request_type: 3 })).toBeUndefined();
  });

  it("prices split, depth and segmentation flat, from the given table", () => {
    expect(taskCost({ kind: "split" })).toBe(20);
    expect(taskCost({ kind: "depth" }, { ...DEFAULT_COSTS, depth: 7 })).toBe(7);
  });

  it("says how many credits are missing", () => {
    expect(shortfall(100, 90)).toBe(0);
    expect(shortfall(50, 90)).toBe(40);
    expect(shortfall(undefined, 90)).toBe(0);
    expect(shortfall(10, undefined)).toBe(0);
  });
});

describe("cost by kind", () => {
  it("reads each kind's own entry of the table", () => {
    const table = { ...DEFAULT_COSTS, split: 11, depth: 12, segmentation: 13 };
    expect(taskCost({ kind: "split" }, table)).toBe(11);
    expect(taskCost({ kind: "depth" }, table)).toBe(12);
    expect(taskCost({ kind: "segmentation" }, table)).toBe(13);
  });
});

describe("a task's cost and its endpoint's price rule", () => {
  it("agree for every model, resolution and request type, and for each flat-priced kind", () => {
    const table: CostTable = { ...DEFAULT_COSTS, split: 11, depth: 12, segmentation: 13 };
    for (const model of MODELS)
      for (const resolution of RESOLUTIONS)
        for (const request_type of [1, 2, 3] as RequestType[]) {
          const values = { ...formStart(SUBMIT_TASK_SPEC, { model, request_type }), resolution };
          expect(taskCost({ kind: "image-to-3d", model, resolution, request_type }, table), `${model} ${resolution}`).toBe(
            SUBMIT_TASK_SPEC.cost(table, values),
          );
        }
    expect(taskCost({ kind: "split" }, table)).toBe(SPLIT_SPEC.cost(table, formStart(SPLIT_SPEC)));
    expect(taskCost({ kind: "depth" }, table)).toBe(DEPTH_SPEC.cost(table, formStart(DEPTH_SPEC)));
    expect(taskCost({ kind: "segmentation" }, table)).toBe(SEGMENTATION_SPEC.cost(table, formStart(SEGMENTATION_SPEC)));
  });
});
