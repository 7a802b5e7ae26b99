import { describe, expect, it } from "vitest";
import { onStep } from "../endpoints/field";
import { ERRORS } from "../errors";
import { DEPTH_FORM_DEFAULTS, depthFieldsFor, depthOptionProblems, wireDepthOptions } from "./depth";

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
