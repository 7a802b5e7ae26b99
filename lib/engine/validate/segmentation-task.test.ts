import { describe, expect, it } from "vitest";
import { SEGMENTATION_DEFAULTS } from "@/lib/x3d/options";
import { formInput, refusal, upload } from "./form-input.test-helpers";
import { validateSegmentationTask } from "./segmentation-task";

const mesh = upload("mesh", "scan.obj", "obj");

describe("validateSegmentationTask (addendum: segmentation/create-task)", () => {
  it("defaults seg_level and format from the spec, and gives the job its values under job names", () => {
    const task = validateSegmentationTask(formInput({}, [mesh]));
    expect(task.values).toEqual({ seg_level: "medium", format: 1 });
    expect(task.values).toEqual(SEGMENTATION_DEFAULTS);
    expect(task.options).toEqual({ segLevel: "medium", format: 1 });
    expect(task.mesh).toEqual({ file: mesh });
    expect(task.callbackUrl).toBeUndefined();
  });

  it("passes the options given, a mesh URL and the callback", () => {
    const task = validateSegmentationTask(
      formInput({ seg_level: "high", format: "5", mesh_url: "https://example.com/scan.obj", callback_url: "https://example.com/hook" }),
    );
    expect(task.options).toEqual({ segLevel: "high", format: 5 });
    expect(task.mesh).toEqual({ url: "https://example.com/scan.obj" });
    expect(task.callbackUrl).toBe("https://example.com/hook");
  });

  it("refuses a seg_level outside low, medium, high (10034001) and a format outside 1..5 (10030002)", () => {
    expect(refusal(() => validateSegmentationTask(formInput({ seg_level: "ultra" }, [mesh])))).toEqual({
      code: 10034001,
      detail: 'seg_level must be one of low, medium, high, got "ultra"',
    });
    // 6 (3mf) is an image-to-3D format but not a segmentation one.
    expect(refusal(() => validateSegmentationTask(formInput({ format: "6" }, [mesh])))).toEqual({
      code: 10030002,
      detail: 'format must be one of 1, 2, 3, 4, 5, got "6"',
    });
  });

  it("checks the mesh first, then seg_level and format, then the callback", () => {
    expect(refusal(() => validateSegmentationTask(formInput({ seg_level: "ultra" }))).code).toBe(10030003);
    const both = formInput({ mesh_url: "https://example.com/a.glb", seg_level: "ultra" }, [mesh]);
    expect(refusal(() => validateSegmentationTask(both)).code).toBe(10030004);
    expect(refusal(() => validateSegmentationTask(formInput({ format: "0", callback_url: "mailto:a@b.c" }, [mesh]))).code).toBe(10030002);
    expect(refusal(() => validateSegmentationTask(formInput({ callback_url: "mailto:a@b.c" }, [mesh])))).toEqual({
      code: 10030001,
      detail: 'callback_url must be an http or https URL, got "mailto:a@b.c"',
    });
  });
});
