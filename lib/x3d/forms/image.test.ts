import { describe, expect, it } from "vitest";
import { DEFAULT_COSTS } from "../costs";
import { ERRORS } from "../errors";
import {
  canTexture,
  changeImageOptions,
  defaultsFor,
  DEPTH_FORM_DEFAULTS,
  depthFieldsFor,
  depthOptionProblems,
  faceProblem,
  fitResolution,
  imageOptionProblems,
  onStep,
  pbrApplies,
  recommendedFaces,
  resolutionsFor,
  shadingApplies,
  shortfall,
  slotsFromBits,
  SPLIT_FORM_DEFAULTS,
  splitFieldsFor,
  taskCost,
  TEXTURE_MODELS,
  viewBits,
  viewsInOrder,
  viewsProblem,
  wireDepthOptions,
  wireImageOptions,
  wireSplitOptions,
} from "./image";
import { MODEL_INFO, MODELS } from "../options";

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

describe("multi-view slots", () => {
  it("spells the filled slots as the bit string, front first", () => {
    expect(viewBits({ front: "a", left: "b" })).toBe("1010");
    expect(viewBits({ front: "a", back: "b", left: "c", right: "d" })).toBe("1111");
    expect(viewBits({ back: "b", right: null })).toBe("0100");
  });

  it("sends the files in view order whatever order they were filled in", () => {
    expect(viewsInOrder({ right: "r", front: "f", left: "l" })).toEqual(["f", "l", "r"]);
  });

  it("maps sent files back onto their slots", () => {
    expect(slotsFromBits("1010", ["f", "l"])).toEqual({ front: "f", left: "l" });
    expect(slotsFromBits("1111", ["f"])).toEqual({ front: "f" });
  });

  it("requires the front view", () => {
    expect(viewsProblem({ front: "f" })).toBeUndefined();
    expect(viewsProblem({ back: "b" })).toBe(ERRORS[10031021].user);
  });
});

describe("depth fields", () => {
  it("shows removal strength with rmbg=1, base shape and thickness with rmbg=0", () => {
    expect(depthFieldsFor(1)).toEqual({ degree_rmbg: true, shape_base: false, thickness_base: false });
    expect(depthFieldsFor(0)).toEqual({ degree_rmbg: false, shape_base: true, thickness_base: true });
  });

  it("checks ranges and steps of the fields that apply", () => {
    expect(depthOptionProblems(DEPTH_FORM_DEFAULTS)).toEqual({});
    const bad = { ...DEPTH_FORM_DEFAULTS, height_relief: 60, degree_rmbg: 0.015, thickness_base: 0.05, width: 40.5 };
    expect(depthOptionProblems(bad)).toEqual({
      height_relief: ERRORS[10033007].user,
      degree_rmbg: ERRORS[10033009].user,
      width: ERRORS[10033012].user,
    });
    expect(depthOptionProblems({ ...bad, rmbg: 0 })).toMatchObject({ thickness_base: ERRORS[10033011].user });
    expect(depthOptionProblems({ ...bad, rmbg: 0 })).not.toHaveProperty("degree_rmbg");
    expect(depthOptionProblems({ ...DEPTH_FORM_DEFAULTS, rmbg: 0, thickness_base: 19.9 })).toEqual({});
  });

  it("sends only the fields of the rmbg mode", () => {
    expect(wireDepthOptions(DEPTH_FORM_DEFAULTS)).toEqual({
      model_type: "pro",
      height_relief: 1.3,
      rmbg: 1,
      degree_rmbg: 0.02,
      width: 40,
      sculpmode: 0,
      format: 3,
    });
    const off = wireDepthOptions({ ...DEPTH_FORM_DEFAULTS, rmbg: 0 });
    expect(off).toMatchObject({ shape_base: 0, thickness_base: 1 });
    expect(off).not.toHaveProperty("degree_rmbg");
  });

  it("tolerates float noise on the step grid", () => {
    expect(onStep(0.07, 0.01)).toBe(true);
    expect(onStep(0.3, 0.1)).toBe(true);
    expect(onStep(0.35, 0.1)).toBe(false);
  });
});

describe("split fields", () => {
  it("shows part, joint and merge for characters, level for general models", () => {
    expect(splitFieldsFor("character", "ball")).toEqual({ part: true, joint: true, merge: true, level: false });
    expect(splitFieldsFor("character", "none")).toEqual({ part: true, joint: true, merge: false, level: false });
    expect(splitFieldsFor("general", "ball")).toEqual({ part: false, joint: false, merge: false, level: true });
  });

  it("sends only the fields that apply", () => {
    expect(wireSplitOptions(SPLIT_FORM_DEFAULTS)).toEqual({ model: "character", part: "a", joint: "ball", merge: "yes", format: 2 });
    expect(wireSplitOptions({ ...SPLIT_FORM_DEFAULTS, joint: "none" })).toEqual({
      model: "character",
      part: "a",
      joint: "none",
      format: 2,
    });
    expect(wireSplitOptions({ ...SPLIT_FORM_DEFAULTS, model: "general", level: "high" })).toEqual({
      model: "general",
      level: "high",
      format: 2,
    });
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

describe("texturing models", () => {
  it("are the models the matrix lets texture an existing mesh", () => {
    for (const model of MODELS) expect(canTexture(model), model).toBe(MODEL_INFO[model].texturesExistingMesh);
  });
});

describe("views from a bit string", () => {
  it("fills only as many slots as there are files", () => {
    expect(slotsFromBits("1101", ["front.png", "back.png"])).toStrictEqual({ front: "front.png", back: "back.png" });
    expect(slotsFromBits("0000", ["front.png"])).toStrictEqual({});
  });
});
