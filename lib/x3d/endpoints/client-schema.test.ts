import { describe, expect, it } from "vitest";
import { z } from "zod";
import { optionCodes, optionsShape, refineOptions, wireOptions } from "./client-schema";
import { DEPTH_SPEC } from "./depth";
import { SPLIT_SPEC } from "./split";
import { SUBMIT_TASK_SPEC } from "./submit-task";

/** The client's option schema of a spec alone: shape, cross-field issues, wire output. */
function optionsOf<S extends typeof SUBMIT_TASK_SPEC | typeof SPLIT_SPEC | typeof DEPTH_SPEC>(spec: S) {
  return z
    .object(optionsShape(spec as never) as z.ZodRawShape)
    .superRefine((o, ctx) => refineOptions(spec as never, o, ctx))
    .transform((o) => wireOptions(spec as never, o));
}
const issues = (schema: z.ZodType, input: unknown) =>
  schema
    .safeParse(input)
    .error?.issues.map((i) => ({ path: i.path, message: i.message, x3dCode: (i as { params?: { x3dCode?: number } }).params?.x3dCode }));

describe("the client's option schema", () => {
  // Built in each test, so that each counts as covering optionsShape.
  const submit = () => optionsOf(SUBMIT_TASK_SPEC);
  const depth = () => optionsOf(DEPTH_SPEC);
  const split = () => optionsOf(SPLIT_SPEC);

  it("sends what was given and the fields the client fills, nothing else", () => {
    expect(submit().parse({})).toStrictEqual({ request_type: 3, model: "x3dv3.0" });
    expect(submit().parse({ face: 300_000, format: 3 })).toStrictEqual({ request_type: 3, model: "x3dv3.0", face: 300_000, format: 3 });
  });

  // Dropped fields are set to undefined, so that they override what the caller gave when spread over it.
  it("drops fields the service would ignore, even when given", () => {
    expect(submit().parse({ model: "x3dv1.5", pbr: 1, shading: 0.3 })).toStrictEqual({
      request_type: 3,
      model: "x3dv1.5",
      pbr: undefined,
      shading: undefined,
    });
    expect(submit().parse({ request_type: 1, pbr: 1, shading: 0.3 })).toStrictEqual({
      request_type: 1,
      model: "x3dv3.0",
      pbr: undefined,
      shading: 0.3,
    });
    expect(split().parse({ model: "general", part: "b", level: "high" })).toStrictEqual({
      model: "general",
      part: undefined,
      joint: undefined,
      merge: undefined,
      level: "high",
    });
  });

  it("keeps a decimal without a step as given, within its range", () => {
    expect(depth().parse({ format: 1, height_relief: 1.37 }).height_relief).toBe(1.37);
    expect(issues(depth(), { format: 1, height_relief: 50.5 })?.map((i) => i.path)).toEqual([["height_relief"]]);
  });

  it("snaps stepped decimals and writes fixed decimals as text", () => {
    expect(submit().parse({ shading: 0.1 + 0.6 }).shading).toBe(0.7);
    expect(depth().parse({ format: 1, rmbg: 0, thickness_base: 2 }).thickness_base).toBe("2.0");
    expect(depth().parse({ format: 1, degree_rmbg: 0.07 }).degree_rmbg).toBe(0.07);
  });

  it("names the step of a value off the grid and the limits of one out of range", () => {
    expect(issues(submit(), { shading: 0.25 })).toEqual([{ path: ["shading"], message: "must be a multiple of 0.1", x3dCode: undefined }]);
    expect(issues(depth(), { format: 1, degree_rmbg: 1.5 })?.[0]?.path).toEqual(["degree_rmbg"]);
  });

  it("codes a missing required field with its required code", () => {
    expect(issues(depth(), {})).toEqual([{ path: ["format"], message: "format is required", x3dCode: 10033015 }]);
  });

  it("checks a given value against what the other fields allow, and leaves a default alone", () => {
    expect(issues(submit(), { model: "x3dv2.1", resolution: "512" })).toEqual([
      { path: ["resolution"], message: 'resolution must be one of 1536fast, 1536pro, got "512"', x3dCode: 10031003 },
    ]);
    expect(issues(submit(), { model: "x3dv2.1" })).toBeUndefined();
  });

  it("runs the cross-field checks with the defaults filled in", () => {
    expect(issues(submit(), { request_type: 2, model: "scene-portraitv2.0" })).toEqual([
      { path: ["model"], message: "scene-portraitv2.0 cannot texture an existing mesh (request_type 2)", x3dCode: 10031017 },
    ]);
    expect(issues(submit(), { request_type: 2 })).toBeUndefined();
  });

  it("codes each field's plain issues with the field's code", () => {
    expect(optionCodes(SPLIT_SPEC)).toEqual({
      model: 10032001,
      part: 10032002,
      joint: 10032003,
      merge: 10032004,
      level: 10032005,
      format: 10030002,
    });
  });
});
