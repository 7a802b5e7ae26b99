import { describe, expect, it } from "vitest";
import { SPLIT_FORM_DEFAULTS, splitFieldsFor, wireSplitOptions } from "./split";

describe("split fields", () => {
  it("shows part, joint and merge for characters, level for general models", () => {
    expect(splitFieldsFor("character", "ball")).toEqual({ part: true, joint: true, merge: true, level: false });
    expect(splitFieldsFor("character", "none")).toEqual({ part: true, joint: true, merge: false, level: false });
    expect(splitFieldsFor("general", "ball")).toEqual({ part: false, joint: false, merge: false, level: true });
  });

  it("sends only the fields that apply", () => {
    expect(wireSplitOptions(SPLIT_FORM_DEFAULTS)).toEqual({ model: "character", part: "a", joint: "ball", merge: "yes", format: 2 });
    expect(wireSplitOptions({ ...SPLIT_FORM_DEFAULTS, joint: "none" })).toEqual({
      model: "character",
      part: "a",
      joint: "none",
      format: 2,
    });
    expect(wireSplitOptions({ ...SPLIT_FORM_DEFAULTS, model: "general", level: "high" })).toEqual({
      model: "general",
      level: "high",
      format: 2,
    });
  });
});
