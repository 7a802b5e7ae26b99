/** The option matrix against the contract (docs/contract/open-api.md 4.2 and 8). */
import { describe, expect, it } from "vitest";
import { FACE_RANGE, isModel, LIMITS, MODEL_INFO, MODELS, modelInfo, REQUEST_TYPES, RESOLUTION_INFO, VIEWS } from "./options";

describe("the model matrix", () => {
  it("offers each model the resolutions of the contract, in the matrix's order", () => {
    expect(Object.fromEntries(MODELS.map((m) => [m, MODEL_INFO[m].resolutions]))).toEqual({
      "x3dv1.5": ["512", "1024", "1536", "1536pro"],
      "x3dv2.0": ["1536", "1536pro"],
      "x3dv2.1": ["1536fast", "1536pro"],
      "x3dv3.0": ["2048quality", "2048master"],
      "scene-portraitv1.5": ["1536"],
      "scene-portraitv2.0": ["1536pro"],
      // Listed as 1536profast, 1536pro in the contract; the matrix orders resolutions once.
      "scene-portraitv2.1": ["1536pro", "1536profast"],
    });
  });

  it("lists a resolution once it has a price, whatever else the row says", () => {
    const rows = Object.fromEntries(MODELS.map((m) => [m, { ...MODEL_INFO[m], prices: { "512": [1, 2, 3] as const } }]));
    const info = modelInfo(rows as never);
    for (const model of MODELS) expect(info[model].resolutions).toEqual(["512"]);
  });

  it("recommends the contract's face counts", () => {
    expect(Object.fromEntries(Object.entries(RESOLUTION_INFO).map(([r, i]) => [r, i.faces]))).toEqual({
      "512": 500_000,
      "1024": 1_000_000,
      "1536": 2_000_000,
      "1536fast": 2_000_000,
      "1536pro": 2_000_000,
      "1536profast": 2_000_000,
      "2048quality": 2_000_000,
      "2048master": 5_000_000,
    });
    expect(FACE_RANGE).toEqual({ min: 100_000, max: 5_000_000 });
  });

  it("has the contract's limits and request types", () => {
    expect(LIMITS).toEqual({ imageBytes: 20 * 1024 * 1024, meshBytes: 200 * 1024 * 1024, multiImages: 4 });
    expect(REQUEST_TYPES).toEqual({ geometry: 1, texture: 2, geometryAndTexture: 3 });
    expect(VIEWS).toEqual(["front", "back", "left", "right"]);
  });

  it("knows its models by name", () => {
    expect(isModel("scene-portraitv2.1")).toBe(true);
    expect(isModel("x3dv4.0")).toBe(false);
    expect(isModel("")).toBe(false);
  });
});
