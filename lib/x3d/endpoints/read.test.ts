import { describe, expect, it } from "vitest";
import { formApplies } from "../forms/endpoint-form";
import { DEPTH_SPEC } from "./depth";
import { endpoint, type EndpointSpec, type Fields, type InputStep } from "./field";
import { allowedOf, allowedProblem, applies, checkValue, defaultOf, parseText, rangeText, readForService, type Problem } from "./read";
import { SPLIT_SPEC } from "./split";
import { SUBMIT_TASK_SPEC } from "./submit-task";

const F = SUBMIT_TASK_SPEC.fields;
const D = DEPTH_SPEC.fields;

describe("text to a field's type", () => {
  it("takes a choice's values exactly and names them when refused", () => {
    expect(parseText("model", F.model, "x3dv2.1")).toEqual({ ok: true, value: "x3dv2.1" });
    expect(parseText("joint", SPLIT_SPEC.fields.joint, "Ball")).toEqual({
      ok: false,
      detail: 'joint must be one of none, ball, dovetail, pin, got "Ball"',
    });
  });

  it("takes an int choice written as a whole number, also as 3.0 or +3", () => {
    for (const raw of ["3", "3.0", "3.", "+3", "03"]) expect(parseText("format", F.format, raw), raw).toEqual({ ok: true, value: 3 });
    for (const raw of ["3.5", "7", "", " 3", "3 ", "0x3", "3e0", "three", "-3"]) {
      expect(parseText("format", F.format, raw), raw).toEqual({
        ok: false,
        detail: `format must be one of 1, 2, 3, 4, 5, 6, got "${raw}"`,
      });
    }
  });

  it("takes a whole number for an int field and leaves its range to checkValue", () => {
    expect(parseText("face", F.face, "300000")).toEqual({ ok: true, value: 300_000 });
    expect(parseText("face", F.face, "300000.00")).toEqual({ ok: true, value: 300_000 });
    expect(parseText("face", F.face, "-5")).toEqual({ ok: true, value: -5 });
    expect(parseText("face", F.face, "99999999")).toEqual({ ok: true, value: 99_999_999 });
    const refused = 'face must be a whole number from 100000 to 5000000, got "RAW"';
    for (const raw of ["3e5", "300000.5", "", "1_000", "9007199254740993", "abc", "300000 "]) {
      expect(parseText("face", F.face, raw), raw).toEqual({ ok: false, detail: refused.replace("RAW", raw) });
    }
  });

  it("takes a decimal in plain notation only", () => {
    const ok = { "0.5": 0.5, ".5": 0.5, "5.": 5, "+0.25": 0.25, "-0.5": -0.5, "1": 1, "007.50": 7.5 };
    for (const [raw, value] of Object.entries(ok)) expect(parseText("shading", F.shading, raw), raw).toEqual({ ok: true, value });
    for (const raw of ["1e-1", "", ".", "0.5.1", "Infinity", "NaN", "0,5", " 0.5", "1" + "0".repeat(400)]) {
      expect(parseText("shading", F.shading, raw), raw).toEqual({
        ok: false,
        detail: `shading must be from 0 to 1 in steps of 0.1, got "${raw}"`,
      });
    }
  });
});

describe("range and step of a typed value", () => {
  it("takes an int field's range ends and refuses one past either end or a fraction", () => {
    expect(checkValue("face", F.face, 100_000)).toEqual({ ok: true, value: 100_000 });
    expect(checkValue("face", F.face, 5_000_000)).toEqual({ ok: true, value: 5_000_000 });
    for (const value of [99_999, 5_000_001, 200_000.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(checkValue("face", F.face, value), String(value)).toEqual({
        ok: false,
        detail: `face must be a whole number from 100000 to 5000000, got "${value}"`,
      });
    }
  });

  it("refuses text where a number belongs, showing what was sent", () => {
    expect(checkValue("width", D.width, "40")).toEqual({ ok: false, detail: 'width must be a whole number from 20 to 600, got "40"' });
    expect(checkValue("face", F.face, 99, "0099")).toEqual({
      ok: false,
      detail: 'face must be a whole number from 100000 to 5000000, got "0099"',
    });
  });

  it("snaps a decimal to its step and refuses values off the grid or out of range", () => {
    expect(checkValue("shading", F.shading, 0.1 + 0.2)).toEqual({ ok: true, value: 0.3 });
    expect(checkValue("shading", F.shading, 0)).toEqual({ ok: true, value: 0 });
    expect(checkValue("shading", F.shading, 1)).toEqual({ ok: true, value: 1 });
    // Float noise past an end is tolerated and snapped back.
    expect(checkValue("shading", F.shading, 1 + 1e-12)).toEqual({ ok: true, value: 1 });
    expect(checkValue("shading", F.shading, -1e-12)).toEqual({ ok: true, value: 0 });
    for (const value of [0.35, 1.1, -0.1, 1 + 1e-8]) {
      expect(checkValue("shading", F.shading, value), String(value)).toEqual({
        ok: false,
        detail: `shading must be from 0 to 1 in steps of 0.1, got "${value}"`,
      });
    }
    expect(checkValue("degree_rmbg", D.degree_rmbg, 0.07)).toEqual({ ok: true, value: 0.07 });
    expect(checkValue("degree_rmbg", D.degree_rmbg, 0.075).ok).toBe(false);
  });

  it("refuses NaN and text for a decimal without a step", () => {
    expect(checkValue("height_relief", D.height_relief, Number.NaN)).toEqual({
      ok: false,
      detail: 'height_relief must be from 0.1 to 50, got "NaN"',
    });
    expect(checkValue("height_relief", D.height_relief, "40")).toEqual({
      ok: false,
      detail: 'height_relief must be from 0.1 to 50, got "40"',
    });
  });

  it("keeps a decimal without a step as it is, within its range", () => {
    expect(checkValue("height_relief", D.height_relief, 1.2345)).toEqual({ ok: true, value: 1.2345 });
    expect(checkValue("height_relief", D.height_relief, 50)).toEqual({ ok: true, value: 50 });
    expect(checkValue("height_relief", D.height_relief, 0.05)).toEqual({
      ok: false,
      detail: 'height_relief must be from 0.1 to 50, got "0.05"',
    });
  });

  it("passes choices through (parseText checked them)", () => {
    expect(checkValue("model", F.model, "x3dv1.5")).toEqual({ ok: true, value: "x3dv1.5" });
    expect(rangeText("model", F.model, "x")).toBe('model is not valid, got "x"');
  });
});

describe("the rules' answers", () => {
  const v1 = { request_type: 3, model: "x3dv1.5", resolution: "1536" } as never;
  const v3 = { request_type: 1, model: "x3dv3.0", resolution: "2048master" } as never;

  it("gives defaults that follow the fields before, else the field's own, else none", () => {
    expect(defaultOf(SUBMIT_TASK_SPEC, "resolution", v1)).toBe("1536");
    expect(defaultOf(SUBMIT_TASK_SPEC, "face", v3)).toBe(5_000_000);
    expect(defaultOf(SUBMIT_TASK_SPEC, "format", v3)).toBe(1);
    expect(defaultOf(DEPTH_SPEC, "format", {} as never)).toBeUndefined();
  });

  it("says what applies to the service and to the form", () => {
    expect(applies(SUBMIT_TASK_SPEC, "pbr", v1)).toBe(false);
    expect(applies(SUBMIT_TASK_SPEC, "pbr", v3)).toBe(false);
    expect(applies(SUBMIT_TASK_SPEC, "pbr", { ...(v3 as object), request_type: 2 } as never)).toBe(true);
    expect(applies(SUBMIT_TASK_SPEC, "format", v1)).toBe(true);
    // The form hides face when texturing; the service still reads it.
    const texture = { ...(v1 as object), request_type: 2 } as never;
    expect(formApplies(SUBMIT_TASK_SPEC, "face", texture)).toBe(false);
    expect(applies(SUBMIT_TASK_SPEC, "face", texture)).toBe(true);
    expect(formApplies(SUBMIT_TASK_SPEC, "shading", v1)).toBe(false);
    expect(formApplies(SUBMIT_TASK_SPEC, "model", v1)).toBe(true);
  });

  it("says which values another field allows, and words a value it does not allow", () => {
    expect(allowedOf(SUBMIT_TASK_SPEC, "resolution", v1)).toEqual(["512", "1024", "1536", "1536pro"]);
    expect(allowedOf(SUBMIT_TASK_SPEC, "face", v1)).toBeUndefined();
    expect(allowedProblem(SUBMIT_TASK_SPEC, "resolution", { ...(v1 as object), resolution: "2048master" } as never)).toEqual({
      field: "resolution",
      code: 10031003,
      detail: 'resolution must be one of 512, 1024, 1536, 1536pro, got "2048master"',
    });
    expect(allowedProblem(SUBMIT_TASK_SPEC, "resolution", v1)).toBeUndefined();
    expect(allowedProblem(SUBMIT_TASK_SPEC, "face", v1)).toBeUndefined();
  });
});

/** The service's reading of text fields: the values, or the first problem. */
function serviceRead<F extends Fields>(spec: EndpointSpec<F>, fields: Record<string, string>, inputs: string[] = []) {
  try {
    const values = readForService(
      spec,
      (name) => fields[name],
      (problem) => {
        throw problem;
      },
      (step: InputStep, sofar) => inputs.push(`${step.input} after ${Object.keys(sofar).join(",")}`),
    );
    return { values };
  } catch (problem) {
    return { problem: problem as Problem };
  }
}

describe("the service's reading", () => {
  it("fills every field from its default, each default following the fields before it", () => {
    expect(serviceRead(SUBMIT_TASK_SPEC, { model: "x3dv1.5" })).toEqual({
      values: { request_type: 3, model: "x3dv1.5", resolution: "1536", face: 2_000_000, format: 1, pbr: 1, rmbg: 1, shading: 0.5 },
    });
    expect(serviceRead(SUBMIT_TASK_SPEC, { resolution: "2048master" }).values).toMatchObject({ model: "x3dv3.0", face: 5_000_000 });
  });

  it("reads given values, parsed and snapped", () => {
    const read = serviceRead(SUBMIT_TASK_SPEC, { request_type: "1.0", face: "123456", shading: "0.30000000000000004", format: "6" });
    expect(read.values).toMatchObject({ request_type: 1, face: 123_456, shading: 0.3, format: 6 });
  });

  it("calls the input steps where the order puts them, with the values read so far", () => {
    const inputs: string[] = [];
    serviceRead(SUBMIT_TASK_SPEC, {}, inputs);
    expect(inputs).toEqual([
      "images after request_type,model",
      "mesh after request_type,model,resolution,face,format,pbr,rmbg,shading",
      "callback_url after request_type,model,resolution,face,format,pbr,rmbg,shading",
    ]);
  });

  it("answers the first problem in the contract's order, with the field's code and what was sent", () => {
    expect(serviceRead(SUBMIT_TASK_SPEC, { model: "x3dv9", face: "1" }).problem).toEqual({
      field: "model",
      code: 10031006,
      detail: `model must be one of ${SUBMIT_TASK_SPEC.fields.model.values.join(", ")}, got "x3dv9"`,
    });
    expect(serviceRead(SUBMIT_TASK_SPEC, { face: "1", format: "9" }).problem).toEqual({
      field: "face",
      code: 10031002,
      detail: 'face must be a whole number from 100000 to 5000000, got "1"',
    });
    expect(serviceRead(SUBMIT_TASK_SPEC, { shading: "0.25" }).problem).toEqual({
      field: "shading",
      code: 10031020,
      detail: 'shading must be from 0 to 1 in steps of 0.1, got "0.25"',
    });
  });

  it("refuses a value the fields before do not allow, quoting it as sent", () => {
    expect(serviceRead(SUBMIT_TASK_SPEC, { model: "x3dv2.1", resolution: "512" }).problem).toEqual({
      field: "resolution",
      code: 10031003,
      detail: 'resolution must be one of 1536fast, 1536pro, got "512"',
    });
  });

  it("runs the cross-field checks where the order puts them", () => {
    expect(serviceRead(SUBMIT_TASK_SPEC, { request_type: "2", model: "x3dv2.0" }).problem).toEqual({
      field: "model",
      code: 10031017,
      detail: "x3dv2.0 cannot texture an existing mesh (request_type 2)",
    });
    const inputs: string[] = [];
    serviceRead(SUBMIT_TASK_SPEC, { request_type: "2", model: "x3dv2.0" }, inputs);
    expect(inputs).toEqual(["images after request_type,model"]);
    expect(serviceRead(SUBMIT_TASK_SPEC, { request_type: "2", model: "x3dv3.0" }).values).toMatchObject({ request_type: 2 });
  });

  it("names a missing required field's values with their labels, under its required code", () => {
    expect(serviceRead(DEPTH_SPEC, {}).problem).toEqual({
      field: "format",
      code: 10033015,
      detail: "format is required: 1 exr, 2 png, 3 stl, 4 glb, 5 3mf, 6 bmp",
    });
    expect(serviceRead(DEPTH_SPEC, { format: "7" }).problem).toMatchObject({ field: "format", code: 10030002 });
  });

  it("names a required choice's values, and says only that it is required for a range", () => {
    const spec = endpoint({
      ...SPLIT_SPEC,
      fields: {
        ...SPLIT_SPEC.fields,
        model: { ...SPLIT_SPEC.fields.model, default: undefined },
        format: { type: "int", doc: "", min: 1, max: 6, code: 10030002 },
      },
    } as never);
    expect(serviceRead(spec, {}).problem).toEqual({ field: "model", code: 10032001, detail: "model is required: character, general" });
    expect(serviceRead(spec, { model: "general" }).problem).toEqual({ field: "format", code: 10030002, detail: "format is required: " });
  });

  it("uses a rule's own code for a value it does not allow", () => {
    const spec = endpoint({
      ...SUBMIT_TASK_SPEC,
      rules: { ...SUBMIT_TASK_SPEC.rules, resolution: { ...SUBMIT_TASK_SPEC.rules.resolution, allowedCode: 10031017 } },
    } as never);
    expect(serviceRead(spec, { model: "x3dv2.1", resolution: "512" }).problem).toMatchObject({ field: "resolution", code: 10031017 });
  });
});
