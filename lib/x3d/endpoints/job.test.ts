import { describe, expect, it } from "vitest";
import { DEPTH_SPEC } from "./depth";
import { formStart } from "../forms/endpoint-form";
import { jobSchema, toJob, valueSchema } from "./job";
import { SEGMENTATION_SPEC } from "./segmentation";
import { SPLIT_SPEC } from "./split";
import { SUBMIT_TASK_SPEC } from "./submit-task";

const submit = {
  request_type: 3,
  model: "x3dv3.0",
  resolution: "2048quality",
  face: 300_000,
  format: 2,
  pbr: 1,
  rmbg: 0,
  shading: 0.7,
} as const;

describe("the generators' job", () => {
  it("renames each option to its job name and turns flags into yes/no", () => {
    expect(toJob(SUBMIT_TASK_SPEC, submit)).toEqual({
      requestType: 3,
      model: "x3dv3.0",
      resolution: "2048quality",
      face: 300_000,
      format: 2,
      pbr: true,
      rmbg: false,
      shading: 0.7,
    });
  });

  it("gives fields the service ignores their ignored value: no pbr or shading outside the v2/v3 families, no pbr for geometry", () => {
    expect(toJob(SUBMIT_TASK_SPEC, { ...submit, model: "x3dv1.5", resolution: "1536" })).toMatchObject({ pbr: false, shading: 0 });
    expect(toJob(SUBMIT_TASK_SPEC, { ...submit, request_type: 1 })).toMatchObject({ pbr: false, shading: 0.7 });
  });

  it("keeps the value read for a field that does not apply but has no ignored value", () => {
    const depth = {
      model_type: "base",
      height_relief: 2.5,
      rmbg: 0,
      degree_rmbg: 0.3,
      shape_base: 1,
      thickness_base: 1.5,
      width: 80,
      sculpmode: 1,
      response_format: "url",
      format: 3,
    } as const;
    expect(toJob(DEPTH_SPEC, depth)).toEqual({
      modelType: "base",
      heightRelief: 2.5,
      rmbg: false,
      degreeRmbg: 0.3,
      shapeBase: 1,
      thicknessBase: 1.5,
      width: 80,
      sculpmode: 1,
      format: 3,
    });
  });

  it("reads split's merge yes/no as a boolean", () => {
    const split = { model: "character", part: "c", joint: "pin", merge: "yes", level: "low", format: 3 } as const;
    expect(toJob(SPLIT_SPEC, split)).toEqual({ model: "character", part: "c", joint: "pin", merge: true, level: "low", format: 3 });
    expect(toJob(SPLIT_SPEC, { ...split, merge: "no" }).merge).toBe(false);
    expect(toJob(SEGMENTATION_SPEC, { seg_level: "high", format: 5 })).toEqual({ segLevel: "high", format: 5 });
  });
});

describe("parsing stored job options", () => {
  // Built in each test, so that each counts as covering jobSchema.
  const schema = () => jobSchema(SUBMIT_TASK_SPEC);
  const job = () => toJob(SUBMIT_TASK_SPEC, submit);

  it("takes what toJob gives", () => {
    expect(schema().parse(job())).toEqual(job());
  });

  it.each([
    ["a flag stored as a number", { pbr: 1 }, ["pbr"]],
    ["a model that does not exist", { model: "x3dv9" }, ["model"]],
    ["a request type out of its values", { requestType: 4 }, ["requestType"]],
    ["a face count that is not whole", { face: 300_000.5 }, ["face"]],
    ["a face count under the range", { face: 99_999 }, ["face"]],
    ["a face count over the range", { face: 5_000_001 }, ["face"]],
    ["de-shading over its range", { shading: 1.1 }, ["shading"]],
    ["de-shading under its range", { shading: -0.1 }, ["shading"]],
  ])("refuses %s", (_, change, path) => {
    const result = schema().safeParse({ ...job(), ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path)).toEqual([path]);
  });

  it("refuses a job without one of its options", () => {
    const rest: Record<string, unknown> = { ...job() };
    delete rest.format;
    expect(
      schema()
        .safeParse(rest)
        .error?.issues.map((i) => i.path),
    ).toEqual([["format"]]);
  });

  it("takes the range ends", () => {
    expect(schema().safeParse({ ...job(), face: 100_000, shading: 0 }).success).toBe(true);
    expect(schema().safeParse({ ...job(), face: 5_000_000, shading: 1 }).success).toBe(true);
  });
});

describe("a spec with a field the generators do not take", () => {
  it("parses the job without it", () => {
    const job = toJob(DEPTH_SPEC, { ...formStart(DEPTH_SPEC), response_format: "url" } as never);
    const schema = jobSchema(DEPTH_SPEC);
    expect(schema.parse(job)).toEqual(job);
    expect(Object.keys(schema.parse({ ...job, responseFormat: "url" }))).not.toContain("responseFormat");
  });
});

describe("a field's value type", () => {
  it("is its values, its integer keys, or its range", () => {
    expect(valueSchema(SPLIT_SPEC.fields.level).safeParse("high").success).toBe(true);
    expect(valueSchema(SPLIT_SPEC.fields.level).safeParse("extreme").success).toBe(false);
    expect(valueSchema(DEPTH_SPEC.fields.format).safeParse(6).success).toBe(true);
    expect(valueSchema(DEPTH_SPEC.fields.format).safeParse("6").success).toBe(false);
    expect(valueSchema(DEPTH_SPEC.fields.width).safeParse(600).success).toBe(true);
    expect(valueSchema(DEPTH_SPEC.fields.width).safeParse(601).success).toBe(false);
    expect(valueSchema(DEPTH_SPEC.fields.width).safeParse(19).success).toBe(false);
    expect(valueSchema(DEPTH_SPEC.fields.height_relief).safeParse(0.1).success).toBe(true);
    expect(valueSchema(DEPTH_SPEC.fields.height_relief).safeParse(0.09).success).toBe(false);
    expect(valueSchema(DEPTH_SPEC.fields.height_relief).safeParse(50.01).success).toBe(false);
  });
});
