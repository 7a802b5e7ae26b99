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
