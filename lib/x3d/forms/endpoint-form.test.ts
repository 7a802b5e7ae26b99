import { describe, expect, it } from "vitest";
import { DEPTH_SPEC } from "../endpoints/depth";
import { endpoint } from "../endpoints/field";
import { SEGMENTATION_SPEC } from "../endpoints/segmentation";
import { SPLIT_SPEC } from "../endpoints/split";
import { SUBMIT_TASK_SPEC } from "../endpoints/submit-task";
import { formFields, formProblems, formShows, formStart, formStartOf, formWire, readForm } from "./endpoint-form";

// The starting values, built in the tests that use them (so that they count as covering formStart).
const starting = () => formStart(SUBMIT_TASK_SPEC);
const text = (fields: Record<string, string>) => (name: string) => fields[name];

describe("the form's fields and starting values", () => {
  it("has every field but the ones it omits", () => {
    expect(formFields(DEPTH_SPEC)).not.toContain("response_format");
    expect(formFields(DEPTH_SPEC)).toHaveLength(9);
    expect(formFields(SPLIT_SPEC)).toEqual(["model", "part", "joint", "merge", "level", "format"]);
  });

  it("starts from the service's defaults, except where the form has its own start (GLB, STL)", () => {
    expect(starting()).toEqual({
      request_type: 3,
      model: "x3dv3.0",
      resolution: "2048quality",
      face: 2_000_000,
      format: 2,
      pbr: 1,
      rmbg: 1,
      shading: 0.5,
    });
    expect(formStart(DEPTH_SPEC)).toEqual({
      model_type: "pro",
      height_relief: 1.3,
      rmbg: 1,
      degree_rmbg: 0.02,
      shape_base: 0,
      thickness_base: 1,
      width: 40,
      sculpmode: 0,
      format: 3,
    });
    expect(formStart(SEGMENTATION_SPEC)).toEqual({ seg_level: "medium", format: 2 });
  });

  it("keeps given values, the later starts following them", () => {
    expect(formStart(SUBMIT_TASK_SPEC, { model: "x3dv1.5", format: 3 })).toMatchObject({
      model: "x3dv1.5",
      resolution: "1536",
      face: 2_000_000,
      format: 3,
    });
    expect(formStart(SUBMIT_TASK_SPEC, { resolution: "2048master" }).face).toBe(5_000_000);
    expect(formStartOf(SUBMIT_TASK_SPEC, "format", starting())).toBe(2);
    expect(formStartOf(SUBMIT_TASK_SPEC, "rmbg", starting())).toBe(1);
  });
});

describe("the form's problems", () => {
  it("has none at its start", () => {
    expect(formProblems(SUBMIT_TASK_SPEC, starting())).toEqual([]);
  });

  it("checks ranges and steps of the fields it shows, in order, with their codes", () => {
    expect(formProblems(SUBMIT_TASK_SPEC, { ...starting(), face: 50, shading: 0.55 })).toEqual([
      { field: "face", code: 10031002, detail: 'face must be a whole number from 100000 to 5000000, got "50"' },
      { field: "shading", code: 10031020, detail: 'shading must be from 0 to 1 in steps of 0.1, got "0.55"' },
    ]);
  });

  it("does not check a field it hides", () => {
    expect(formProblems(SUBMIT_TASK_SPEC, { ...starting(), request_type: 2, face: 50 })).toEqual([]);
    expect(formProblems(SUBMIT_TASK_SPEC, { ...starting(), model: "x3dv1.5", resolution: "1536", shading: 7 })).toEqual([]);
  });

  it("checks what another field allows and the cross-field checks", () => {
    expect(formProblems(SUBMIT_TASK_SPEC, { ...starting(), model: "x3dv2.0", request_type: 2, resolution: "512" })).toEqual([
      { field: "resolution", code: 10031003, detail: 'resolution must be one of 1536, 1536pro, got "512"' },
      { field: "model", code: 10031017, detail: "x3dv2.0 cannot texture an existing mesh (request_type 2)" },
    ]);
  });
});

describe("what the form sends", () => {
  it("sends the fields it shows, snapped to their steps", () => {
    expect(formWire(SUBMIT_TASK_SPEC, { ...starting(), shading: 0.1 + 0.2 })).toEqual({ ...starting(), shading: 0.3 });
    expect(formWire(SUBMIT_TASK_SPEC, { ...starting(), request_type: 1 })).toEqual({
      request_type: 1,
      model: "x3dv3.0",
      resolution: "2048quality",
      face: 2_000_000,
      format: 2,
      rmbg: 1,
      shading: 0.5,
    });
  });

  it("sends nothing for a field without a value", () => {
    const values: Record<string, unknown> = { ...formStart(DEPTH_SPEC), response_format: "url" };
    delete values.width;
    expect(formWire(DEPTH_SPEC, values as never)).toStrictEqual({
      model_type: "pro",
      height_relief: 1.3,
      rmbg: 1,
      degree_rmbg: 0.02,
      sculpmode: 0,
      format: 3,
    });
  });

  it("sends a value off its range as it is (the form's problems refuse it)", () => {
    expect(formWire(SUBMIT_TASK_SPEC, { ...starting(), shading: 3 }).shading).toBe(3);
  });
});

describe("reading a submitted form", () => {
  it("reads the fields, parsed and snapped, and starts the ones not sent", () => {
    const read = readForm(
      SUBMIT_TASK_SPEC,
      text({ model: "x3dv2.1", resolution: "1536fast", face: "400000", shading: "0.30000000000000004" }),
    );
    expect(read).toEqual({
      ok: true,
      values: {
        request_type: 3,
        model: "x3dv2.1",
        resolution: "1536fast",
        face: 400_000,
        format: 2,
        pbr: 1,
        rmbg: 1,
        shading: 0.3,
      },
    });
  });

  it("gives hidden fields their start without reading them", () => {
    const read = readForm(DEPTH_SPEC, text({ rmbg: "0", thickness_base: "2.5", degree_rmbg: "nonsense", format: "2" }));
    expect(read).toEqual({
      ok: true,
      values: { ...formStart(DEPTH_SPEC), rmbg: 0, thickness_base: 2.5, format: 2 },
    });
    const texture = readForm(SUBMIT_TASK_SPEC, text({ request_type: "2", model: "x3dv1.5", resolution: "1536", face: "junk" }));
    expect(texture.ok && texture.values.face).toBe(2_000_000);
  });

  it("refuses a form without a field it requires, under the field's required code", () => {
    expect(readForm(SUBMIT_TASK_SPEC, text({ resolution: "2048quality", face: "300000" }))).toEqual({
      ok: false,
      problems: [{ field: "model", code: 10031006, detail: "model is required" }],
    });
    expect(readForm(DEPTH_SPEC, text({}))).toEqual({
      ok: false,
      problems: [{ field: "format", code: 10033015, detail: "format is required" }],
    });
  });

  it("refuses a form without a field that has no start, even where the form does not require it", () => {
    const spec = endpoint({
      ...SEGMENTATION_SPEC,
      fields: { ...SEGMENTATION_SPEC.fields, seg_level: { ...SEGMENTATION_SPEC.fields.seg_level, default: undefined } },
    } as never);
    expect(readForm(spec, text({ format: "2" }))).toEqual({
      ok: false,
      problems: [{ field: "seg_level", code: 10034001, detail: "seg_level is required" }],
    });
  });

  it("reports only type problems while a field is not of its type, rules not asked", () => {
    const read = readForm(SUBMIT_TASK_SPEC, text({ model: "x3dv9", face: "lots", shading: "2" }));
    expect(read).toEqual({
      ok: false,
      problems: [
        { field: "model", code: 10031006, detail: `model must be one of ${SUBMIT_TASK_SPEC.fields.model.values.join(", ")}, got "x3dv9"` },
        // resolution has no start without a model.
        { field: "resolution", code: 10031003, detail: "resolution is required" },
        { field: "face", code: 10031002, detail: 'face must be a whole number from 100000 to 5000000, got "lots"' },
      ],
    });
  });

  it("after the types, reports ranges, allowed values and checks", () => {
    const read = readForm(SUBMIT_TASK_SPEC, text({ model: "x3dv2.0", resolution: "2048master", face: "6000000", request_type: "1" }));
    expect(read).toEqual({
      ok: false,
      problems: [
        { field: "resolution", code: 10031003, detail: 'resolution must be one of 1536, 1536pro, got "2048master"' },
        { field: "face", code: 10031002, detail: 'face must be a whole number from 100000 to 5000000, got "6000000"' },
      ],
    });
  });
});

describe("where the form shows problems", () => {
  it("shows problems beside the table's fields, without the callback, omitted fields and those asked to leave out", () => {
    expect(formShows(SEGMENTATION_SPEC)).toEqual(["mesh", "mesh_url", "seg_level", "format"]);
    expect(formShows(DEPTH_SPEC, ["image_url"])).toEqual([
      "image",
      "model_type",
      "height_relief",
      "rmbg",
      "degree_rmbg",
      "shape_base",
      "thickness_base",
      "width",
      "sculpmode",
      "format",
    ]);
  });
});
