import { describe, expect, it } from "vitest";
import { DEPTH_SPEC } from "../endpoints/depth";
import { SPLIT_SPEC } from "../endpoints/split";
import { SUBMIT_TASK_SPEC } from "../endpoints/submit-task";
import { choiceOptions, inputStep, intChoiceOptions, rangeHint } from "./controls";

describe("the form's controls", () => {
  it("lists a choice's values with their labels, or the value where it has none", () => {
    expect(choiceOptions(SPLIT_SPEC.fields.joint)).toEqual([
      { value: "none", label: "None" },
      { value: "ball", label: "Ball" },
      { value: "dovetail", label: "Dovetail" },
      { value: "pin", label: "Pin" },
    ]);
    expect(choiceOptions(DEPTH_SPEC.fields.model_type)).toEqual([
      { value: "base", label: "base" },
      { value: "pro", label: "pro" },
    ]);
    expect(choiceOptions(SPLIT_SPEC.fields.level, (label, value) => `${label} (${value})`)[0]).toEqual({
      value: "low",
      label: "Low (low)",
    });
  });

  it("lists an int choice's values with their labels", () => {
    expect(intChoiceOptions(DEPTH_SPEC.fields.shape_base)).toEqual([
      { value: 0, label: "square" },
      { value: 1, label: "circle" },
    ]);
    expect(intChoiceOptions(SUBMIT_TASK_SPEC.fields.format, (label) => label.toUpperCase()).map((o) => o.label)).toEqual([
      "OBJ",
      "GLB",
      "STL",
      "FBX",
      "USDZ",
      "3MF",
    ]);
  });

  it("steps number inputs by 1 for whole numbers, by the field's step, else by 0.1", () => {
    expect(inputStep(SUBMIT_TASK_SPEC.fields.face)).toBe(1);
    expect(inputStep(DEPTH_SPEC.fields.degree_rmbg)).toBe(0.01);
    expect(inputStep(DEPTH_SPEC.fields.height_relief)).toBe(0.1);
  });

  it("hints each number input's range (and step) from the spec", () => {
    expect(rangeHint(SUBMIT_TASK_SPEC.fields.face)).toBe("A whole number from 100000 to 5000000.");
    expect(rangeHint(SUBMIT_TASK_SPEC.fields.shading)).toBe("From 0.0 to 1.0 in steps of 0.1.");
    expect(rangeHint(DEPTH_SPEC.fields.degree_rmbg)).toBe("From 0.00 to 1.00 in steps of 0.01.");
    expect(rangeHint(DEPTH_SPEC.fields.height_relief)).toBe("From 0.1 to 50.0.");
    expect(rangeHint({ type: "decimal", doc: "", code: 10033012, min: 2, max: 10, step: 2 })).toBe("From 2 to 10 in steps of 2.");
  });
});
