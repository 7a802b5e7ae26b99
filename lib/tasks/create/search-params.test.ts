import { describe, expect, it } from "vitest";
import { prefillParams } from "./search-params";

const params = (value: Record<string, string | string[] | undefined>) => Promise.resolve(value);

describe("prefillParams", () => {
  it("reads ?again= and ?from= as single values", async () => {
    expect(await prefillParams(params({ again: "t1", from: "t2", other: "x" }))).toEqual({ again: "t1", from: "t2" });
    expect(await prefillParams(params({ from: "t2" }))).toEqual({ from: "t2" });
    expect(await prefillParams(params({ again: "t1" }))).toEqual({ again: "t1" });
  });

  it("reads the shown task (?task=) and a dropped image (?upload=) the same way", async () => {
    expect(await prefillParams(params({ task: "t3", upload: "u1", again: "" }))).toEqual({ task: "t3", upload: "u1" });
    expect(await prefillParams(params({ task: ["a", "b"], upload: "c".repeat(201) }))).toEqual({ upload: "c".repeat(200) });
  });

  it("leaves out empty, missing and repeated values", async () => {
    const none = await prefillParams(params({ again: "", from: ["a", "b"] }));
    expect(none).toEqual({});
    expect(Object.keys(none)).toEqual([]);
    expect(await prefillParams(params({}))).toEqual({});
  });

  it("keeps at most 200 characters of a value", async () => {
    const long = "a".repeat(200) + "tail";
    expect(await prefillParams(params({ again: long }))).toEqual({ again: "a".repeat(200) });
    expect((await prefillParams(params({ from: "b".repeat(199) }))).from).toHaveLength(199);
  });
});
