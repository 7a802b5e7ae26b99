import { describe, expect, it } from "vitest";
import { ERRORS } from "../errors";
import { slotsFromBits, viewBits, viewsInOrder, viewsProblem } from "./views";

describe("multi-view slots", () => {
  it("spells the filled slots as the bit string, front first", () => {
    expect(viewBits({ front: "a", left: "b" })).toBe("1010");
    expect(viewBits({ front: "a", back: "b", left: "c", right: "d" })).toBe("1111");
    expect(viewBits({ back: "b", right: null })).toBe("0100");
  });

  it("sends the files in view order whatever order they were filled in", () => {
    expect(viewsInOrder({ right: "r", front: "f", left: "l" })).toEqual(["f", "l", "r"]);
  });

  it("maps sent files back onto their slots", () => {
    expect(slotsFromBits("1010", ["f", "l"])).toEqual({ front: "f", left: "l" });
    expect(slotsFromBits("1111", ["f"])).toEqual({ front: "f" });
  });

  it("requires the front view", () => {
    expect(viewsProblem({ front: "f" })).toBeUndefined();
    expect(viewsProblem({ back: "b" })).toBe(ERRORS[10031021].user);
  });
});

describe("views from a bit string", () => {
  it("fills only as many slots as there are files", () => {
    expect(slotsFromBits("1101", ["front.png", "back.png"])).toStrictEqual({ front: "front.png", back: "back.png" });
    expect(slotsFromBits("0000", ["front.png"])).toStrictEqual({});
  });
});
