import { describe, expect, it } from "vitest";
import { DEPTH_SPEC } from "./depth";
import { checksOf, choices, fieldOrder, fixed, grouped, inTableOrder, intValues, MESH_INPUTS, onStep, snap } from "./field";
import { SPLIT_SPEC } from "./split";
import { SUBMIT_TASK_SPEC } from "./submit-task";

describe("the step grid", () => {
  it("accepts values on the grid despite float noise and refuses values between its points", () => {
    expect(onStep(0.1 + 0.2, 0.1)).toBe(true);
    expect(onStep(0.7, 0.1)).toBe(true);
    expect(onStep(0.75, 0.1)).toBe(false);
    expect(onStep(0.02, 0.01)).toBe(true);
    expect(onStep(0.025, 0.01)).toBe(false);
    // Just off the grid by more than the float-noise tolerance.
    expect(onStep(0.1 + 1e-5, 0.1)).toBe(false);
    expect(onStep(-0.3, 0.1)).toBe(true);
  });

  it("snaps to the grid with the step's number of decimals", () => {
    expect(snap(0.1 + 0.2, 0.1)).toBe(0.3);
    expect(snap(0.7000000000000001, 0.1)).toBe(0.7);
    expect(snap(0.56, 0.1)).toBe(0.6);
    expect(snap(0.123, 0.01)).toBe(0.12);
    expect(snap(7.4, 1)).toBe(7);
    expect(snap(1.26, 0.5)).toBe(1.5);
  });
});

describe("numbers for people", () => {
  it("groups thousands and fixes decimals", () => {
    expect(grouped(5_000_000)).toBe("5,000,000");
    expect(grouped(999)).toBe("999");
    expect(fixed(50, 1)).toBe("50.0");
    expect(fixed(0.02, 2)).toBe("0.02");
  });
});

describe("reading a spec", () => {
  it("lists the option fields in the order they are checked, inputs and checks left out", () => {
    expect(fieldOrder(SUBMIT_TASK_SPEC)).toEqual(["request_type", "model", "resolution", "face", "format", "pbr", "rmbg", "shading"]);
    expect(fieldOrder(SPLIT_SPEC)).toEqual(["model", "part", "joint", "merge", "level", "format"]);
  });

  it("finds the cross-field checks", () => {
    expect(checksOf(SUBMIT_TASK_SPEC).map((c) => [c.check, c.field, c.code])).toEqual([["model textures", "model", 10031017]]);
    expect(checksOf(DEPTH_SPEC)).toEqual([]);
  });

  it("gives the values of choice and int-choice fields, and none for ranges", () => {
    expect(choices(SPLIT_SPEC.fields.joint)).toEqual(["none", "ball", "dovetail", "pin"]);
    expect(choices(DEPTH_SPEC.fields.format)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(intValues(SUBMIT_TASK_SPEC.fields.request_type)).toEqual([1, 2, 3]);
    expect(choices(SUBMIT_TASK_SPEC.fields.face)).toBeUndefined();
    expect(choices(SUBMIT_TASK_SPEC.fields.shading)).toBeUndefined();
  });

  it("puts a record's keys in the table's order, keeping keys the table does not name after them", () => {
    const ordered = inTableOrder(SPLIT_SPEC, { format: 2, extra: "x", model: "general", mesh_url: "https://m/a.glb" });
    expect(Object.entries(ordered)).toEqual([
      ["mesh_url", "https://m/a.glb"],
      ["model", "general"],
      ["format", 2],
      ["extra", "x"],
    ]);
    // Keys that are absent stay absent; a key present as undefined keeps its place.
    expect(Object.keys(inTableOrder(SPLIT_SPEC, { level: undefined, model: "general" }))).toEqual(["model", "level"]);
  });

  it("documents the mesh inputs with the codes their checks answer, and the callback", () => {
    expect(Object.keys(MESH_INPUTS)).toEqual(["mesh", "mesh_url", "callback_url"]);
    expect(MESH_INPUTS.mesh?.codes).toEqual([10030003, 10030004, 10030005, 10030006, 10030008, 10030012]);
    expect(MESH_INPUTS.mesh_url?.codes).toEqual([10030005, 10030007]);
    expect(MESH_INPUTS.callback_url).toMatchObject({ kind: "url", codes: [10030001] });
  });
});
