import { describe, expect, it } from "vitest";
import { comparedPair, tick } from "./compare-pair";

const tasks = [
  { id: "new", createdAt: "2030-01-03T00:00:00.000Z" },
  { id: "mid", createdAt: "2030-01-02T00:00:00.000Z" },
  { id: "old", createdAt: "2030-01-01T00:00:00.000Z" },
];

describe("tick", () => {
  it("keeps at most two ticks, a third replacing the earliest, and unticks", () => {
    expect(tick([], "a", true)).toEqual(["a"]);
    expect(tick(["a"], "b", true)).toEqual(["a", "b"]);
    expect(tick(["a", "b"], "c", true)).toEqual(["b", "c"]);
    expect(tick(["a", "b"], "a", true)).toEqual(["b", "a"]);
    expect(tick(["a", "b"], "a", false)).toEqual(["b"]);
    expect(tick(["a"], "z", false)).toEqual(["a"]);
  });
});

describe("comparedPair", () => {
  it("compares the one ticked with the one shown, older first", () => {
    expect(comparedPair(tasks, ["old"], "new")?.map((t) => t.id)).toEqual(["old", "new"]);
    expect(comparedPair(tasks, ["new"], "old")?.map((t) => t.id)).toEqual(["old", "new"]);
  });

  it("compares two ticked whatever is shown, and nothing with one tick on the shown one or none", () => {
    expect(comparedPair(tasks, ["new", "mid"], "old")?.map((t) => t.id)).toEqual(["mid", "new"]);
    expect(comparedPair(tasks, ["mid"], "mid")).toBeNull();
    expect(comparedPair(tasks, ["mid"], null)).toBeNull();
    expect(comparedPair(tasks, [], "mid")).toBeNull();
  });

  it("counts a tick of a result no longer listed as none", () => {
    expect(comparedPair(tasks, ["gone"], "new")).toBeNull();
    expect(comparedPair(tasks, ["gone", "old"], "new")?.map((t) => t.id)).toEqual(["old", "new"]);
  });
});
