// The create forms' starting values: defaults, overlaid with an earlier task's valid options.
import { describe, expect, it } from "vitest";
import { DEPTH_FORM_DEFAULTS } from "@/lib/x3d/forms/depth";
import { SPLIT_FORM_DEFAULTS } from "@/lib/x3d/forms/split";
import { initialDepthOptions, initialImageOptions, initialSegmentationOptions, initialSplitOptions } from "./starting-values";

const IMAGE_DEFAULTS = {
  request_type: 3,
  model: "x3dv3.0",
  resolution: "2048quality",
  face: 2_000_000,
  format: 2,
  pbr: 1,
  rmbg: 1,
  shading: 0.5,
};

describe("initialImageOptions", () => {
  it("starts from the studio's defaults", () => {
    expect(initialImageOptions(undefined)).toEqual(IMAGE_DEFAULTS);
    expect(initialImageOptions({})).toEqual(IMAGE_DEFAULTS);
    expect(initialImageOptions(undefined, true)).toEqual({ ...IMAGE_DEFAULTS, request_type: 2 });
  });

  it("keeps image-to-3D tasks on request type 1 or 3, and texture ones on 2", () => {
    expect(initialImageOptions({ request_type: 2 }).request_type).toBe(3);
    expect(initialImageOptions({ request_type: 1 }).request_type).toBe(1);
    expect(initialImageOptions({ request_type: "1" }).request_type).toBe(1);
    expect(initialImageOptions({ request_type: 1 }, true).request_type).toBe(2);
    expect(initialImageOptions({ request_type: 3 }, true).request_type).toBe(2);
  });

  it("takes a stored model only when it exists (and can texture, for texturing)", () => {
    expect(initialImageOptions({ model: "x3dv1.5" }).model).toBe("x3dv1.5");
    expect(initialImageOptions({ model: "x3dv9" }).model).toBe("x3dv3.0");
    expect(initialImageOptions({ model: 15 }).model).toBe("x3dv3.0");
    expect(initialImageOptions({ model: "x3dv2.1" }).model).toBe("x3dv2.1");
    expect(initialImageOptions({ model: "x3dv2.1" }, true).model).toBe("x3dv3.0");
  });

  it("reads stored values written as text, and skips objects and nulls", () => {
    expect(initialImageOptions({ face: "700000", format: "3", rmbg: "0" })).toEqual({
      ...IMAGE_DEFAULTS,
      face: 700_000,
      format: 3,
      rmbg: 0,
    });
    expect(initialImageOptions({ face: { n: 700000 }, format: [3], rmbg: null, pbr: undefined })).toEqual(IMAGE_DEFAULTS);
    expect(initialImageOptions({ format: "glb", shading: "lots" })).toEqual(IMAGE_DEFAULTS);
  });

  it("fits the resolution to the model, and a bad face count to the resolution's recommendation", () => {
    expect(initialImageOptions({ model: "x3dv1.5", resolution: "512", face: 5 })).toMatchObject({ resolution: "512", face: 500_000 });
    expect(initialImageOptions({ model: "x3dv1.5", resolution: "1024", face: 0 })).toMatchObject({ resolution: "1024", face: 1_000_000 });
    expect(initialImageOptions({ model: "x3dv1.5", resolution: "512", face: 1_500_000 })).toMatchObject({ face: 1_500_000 });
    expect(initialImageOptions({ model: "x3dv1.5", resolution: "2048quality" }).resolution).toBe("1536");
  });
});

describe("initial split, depth and segmentation options", () => {
  it("start from their defaults", () => {
    expect(initialSplitOptions(undefined)).toEqual(SPLIT_FORM_DEFAULTS);
    expect(initialDepthOptions(undefined)).toEqual(DEPTH_FORM_DEFAULTS);
    expect(initialSegmentationOptions(undefined)).toEqual({ seg_level: "medium", format: 2 });
  });

  it("take each stored value of the right type", () => {
    expect(initialSegmentationOptions({ seg_level: "high", format: "4" })).toEqual({ seg_level: "high", format: 4 });
    expect(initialSegmentationOptions({ seg_level: "extreme", format: 4 })).toEqual({ seg_level: "medium", format: 4 });
    expect(initialDepthOptions({ width: "abc", height_relief: 2, sculpmode: 1 })).toEqual({
      ...DEPTH_FORM_DEFAULTS,
      height_relief: 2,
      sculpmode: 1,
    });
    expect(initialSplitOptions({ joint: "ball", merge: "no", level: null })).toEqual({ ...SPLIT_FORM_DEFAULTS, merge: "no" });
  });
});
