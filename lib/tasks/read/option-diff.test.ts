import { describe, expect, it } from "vitest";
import { differingOptions } from "./option-diff";

describe("differingOptions", () => {
  it("names the options whose values differ, including one only one task has", () => {
    expect(differingOptions({ model: "x3dv1.5", face: 2000, pbr: 1 }, { model: "x3dv1.5", face: 8000, rmbg: 1 })).toEqual([
      "face",
      "pbr",
      "rmbg",
    ]);
  });
  it("is empty for the same options in another order", () => {
    expect(differingOptions({ a: 1, b: "x" }, { b: "x", a: 1 })).toEqual([]);
  });
});

describe("differingOptions, absent and nested values", () => {
  it("treats an absent option and a null one alike", () => {
    expect(differingOptions({ a: null, b: 1 }, { b: 1 })).toEqual([]);
    expect(differingOptions({}, { a: null })).toEqual([]);
  });

  it("compares nested values by content, and keeps first-seen order", () => {
    expect(differingOptions({ z: [1, 2], y: { k: 1 } }, { y: { k: 1 }, z: [1, 2] })).toEqual([]);
    expect(differingOptions({ z: [1, 2], y: { k: 1 } }, { x: 0, y: { k: 2 }, z: [2, 1] })).toEqual(["z", "y", "x"]);
    // 0 and false and "" are values, not absences.
    expect(differingOptions({ a: 0, b: "", c: false }, {})).toEqual(["a", "b", "c"]);
  });
});
