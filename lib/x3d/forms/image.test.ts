import { describe, expect, it } from "vitest";
import { ERRORS } from "../errors";
import { MODEL_INFO, MODELS } from "../options";
import {
  canTexture,
  changeImageOptions,
  defaultsFor,
  faceProblem,
  fitResolution,
  imageOptionProblems,
  pbrApplies,
  recommendedFaces,
  resolutionsFor,
  shadingApplies,
  TEXTURE_MODELS,
  wireImageOptions,
} from "./image";

describe("image-to-3D matrix", () => {
  it("lists each model's resolutions", () => {
    expect(resolutionsFor("x3dv1.5")).toEqual(["512", "1024", "1536", "1536pro"]);
    expect(resolutionsFor("x3dv2.1")).toEqual(["1536fast", "1536pro"]);
    expect(resolutionsFor("x3dv3.0")).toEqual(["2048quality", "2048master"]);
    expect(resolutionsFor("scene-portraitv1.5")).toEqual(["1536"]);
  });

  it("keeps a resolution the new model offers, else takes its default", () => {
    expect(fitResolution("x3dv2.0", "1536pro")).toBe("1536pro");
    expect(fitResolution("x3dv3.0", "1536pro")).toBe("2048quality");
    expect(fitResolution("x3dv2.1", undefined)).toBe("1536pro");
  });

  it("offers pbr and shading to the v2.0, v2.1 and v3.0 families only, pbr only when texturing", () => {
    for (const model of MODELS) expect(shadingApplies(model)).toBe(MODEL_INFO[model].pbrAndShading);
    expect(pbrApplies("x3dv1.5", 3)).toBe(false);
    expect(pbrApplies("scene-portraitv2.0", 3)).toBe(true);
    expect(pbrApplies("x3dv3.0", 1)).toBe(false);
    expect(pbrApplies("x3dv3.0", 2)).toBe(true);
  });

  it("lets only v1.5, v3.0 and scene-portrait v1.5 texture an existing mesh", () => {
    expect(TEXTURE_MODELS).toEqual(["x3dv1.5", "x3dv3.0", "scene-portraitv1.5"]);
    expect(canTexture("x3dv2.1")).toBe(false);
  });

  it("starts each model at its default resolution and that resolution's recommended faces, as GLB", () => {
    expect(defaultsFor("x3dv3.0")).toEqual({
      request_type: 3,
      model: "x3dv3.0",
      resolution: "2048quality",
      pbr: 1,
      shading: 0.5,
      face: 2_000_000,
      format: 2,
      rmbg: 1,
    });
    expect(defaultsFor("x3dv1.5", 1)).toMatchObject({ request_type: 1, resolution: "1536" });
    expect(recommendedFaces("512")).toBe(500_000);
    expect(recommendedFaces("2048master")).toBe(5_000_000);
  });

  it("moves the face count with the resolution until the user sets their own", () => {
    const start = defaultsFor("x3dv1.5");
    const small = changeImageOptions(start, { resolution: "512" });
    expect(small).toMatchObject({ resolution: "512", face: 500_000 });
    const v3 = changeImageOptions(small, { model: "x3dv3.0" });
    expect(v3).toMatchObject({ model: "x3dv3.0", resolution: "2048quality", face: 2_000_000 });
    const own = { ...v3, face: 1_234_567 };
    expect(changeImageOptions(own, { resolution: "2048master" })).toMatchObject({ resolution: "2048master", face: 1_234_567 });
  });

  it("checks the face count's range and wholeness", () => {
    expect(faceProblem(100_000)).toBeUndefined();
    expect(faceProblem(5_000_000)).toBeUndefined();
    for (const bad of [99_999, 5_000_001, 150_000.5, Number.NaN]) expect(faceProblem(bad)).toBe(ERRORS[10031002].user);
  });

  it("reports matrix problems with the catalogue's sentences", () => {
    expect(imageOptionProblems(defaultsFor("x3dv3.0"))).toEqual({});
    expect(imageOptionProblems({ ...defaultsFor("x3dv3.0"), resolution: "512" })).toEqual({ resolution: ERRORS[10031003].user });
    expect(imageOptionProblems({ ...defaultsFor("x3dv2.0"), request_type: 2 })).toEqual({ model: ERRORS[10031017].user });
    expect(imageOptionProblems({ ...defaultsFor("x3dv2.0"), shading: 0.55 })).toEqual({ shading: ERRORS[10031020].user });
    // Shading does not apply to v1.5, and a texture task sends no face count.
    expect(imageOptionProblems({ ...defaultsFor("x3dv1.5"), shading: 7 })).toEqual({});
    expect(imageOptionProblems({ ...defaultsFor("x3dv1.5"), request_type: 2, face: 0 })).toEqual({});
  });

  it("sends only the options that apply", () => {
    expect(wireImageOptions(defaultsFor("x3dv1.5"))).toEqual({
      request_type: 3,
      model: "x3dv1.5",
      resolution: "1536",
      face: 2_000_000,
      format: 2,
      rmbg: 1,
    });
    expect(wireImageOptions({ ...defaultsFor("x3dv3.0"), shading: 0.30000000000000004 })).toMatchObject({ pbr: 1, shading: 0.3 });
    expect(wireImageOptions(defaultsFor("x3dv3.0", 1))).not.toHaveProperty("pbr");
    expect(wireImageOptions(defaultsFor("x3dv3.0", 2))).not.toHaveProperty("face");
  });
});

describe("texturing models", () => {
  it("are the models the matrix lets texture an existing mesh", () => {
    for (const model of MODELS) expect(canTexture(model), model).toBe(MODEL_INFO[model].texturesExistingMesh);
  });
});
