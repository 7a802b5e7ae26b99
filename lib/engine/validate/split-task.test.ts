import { describe, expect, it } from "vitest";
import { SPLIT_DEFAULTS } from "@/lib/x3d/options";
import { formInput, refusal, upload } from "./form-input.test-helpers";
import { validateSplitTask } from "./split-task";

const mesh = upload("mesh", "robot.glb", "glb");

describe("validateSplitTask (open-api.md 4.5)", () => {
  it("gives every absent option the spec's default, and the job its values under job names (merge as a yes/no)", () => {
    const task = validateSplitTask(formInput({}, [mesh]));
    expect(task.values).toEqual({ model: "character", part: "a", joint: "ball", merge: "yes", level: "medium", format: 1 });
    expect(task.values).toEqual(SPLIT_DEFAULTS);
    expect(task.options).toEqual({ model: "character", part: "a", joint: "ball", merge: true, level: "medium", format: 1 });
    expect(task.mesh).toEqual({ file: mesh });
    expect(task.callbackUrl).toBeUndefined();
  });

  it("passes the options given to the job, and the callback trimmed", () => {
    const task = validateSplitTask(
      formInput(
        { model: "general", part: "d", joint: "pin", merge: "no", level: "high", format: "3", callback_url: " https://example.com/hook " },
        [mesh],
      ),
    );
    expect(task.options).toEqual({ model: "general", part: "d", joint: "pin", merge: false, level: "high", format: 3 });
    expect(task.values).toEqual({ model: "general", part: "d", joint: "pin", merge: "no", level: "high", format: 3 });
    expect(task.callbackUrl).toBe("https://example.com/hook");
  });

  it("takes a mesh URL instead of a file", () => {
    expect(validateSplitTask(formInput({ mesh_url: "https://example.com/robot.stl" })).mesh).toEqual({
      url: "https://example.com/robot.stl",
    });
  });

  it("refuses each invalid option with its code, naming the field, the values allowed and the value sent", () => {
    const cases = [
      [{ model: "robot" }, 10032001, 'model must be one of character, general, got "robot"'],
      [{ part: "g" }, 10032002, 'part must be one of a, b, c, d, e, f, got "g"'],
      [{ joint: "hinge" }, 10032003, 'joint must be one of none, ball, dovetail, pin, got "hinge"'],
      [{ merge: "1" }, 10032004, 'merge must be one of yes, no, got "1"'],
      [{ level: "max" }, 10032005, 'level must be one of low, medium, high, got "max"'],
      [{ format: "7" }, 10030002, 'format must be one of 1, 2, 3, 4, 5, 6, got "7"'],
    ] as const;
    for (const [fields, code, detail] of cases) {
      expect(
        refusal(() => validateSplitTask(formInput(fields, [mesh]))),
        detail,
      ).toEqual({ code, detail });
    }
  });

  it("checks the mesh first, then the options in the table's order, then the callback", () => {
    // No mesh and a bad model: the mesh answers.
    expect(refusal(() => validateSplitTask(formInput({ model: "robot" }))).code).toBe(10030003);
    expect(refusal(() => validateSplitTask(formInput({ model: "robot", format: "9" }, [upload("mesh", "a.png", "png")]))).code).toBe(
      10030005,
    );
    // A bad format and a bad callback: the format answers; the callback alone answers 10030001.
    expect(refusal(() => validateSplitTask(formInput({ format: "9", callback_url: "ftp://example.com/hook" }, [mesh]))).code).toBe(
      10030002,
    );
    expect(refusal(() => validateSplitTask(formInput({ callback_url: "ftp://example.com/hook" }, [mesh])))).toEqual({
      code: 10030001,
      detail: 'callback_url must be an http or https URL, got "ftp://example.com/hook"',
    });
  });
});
