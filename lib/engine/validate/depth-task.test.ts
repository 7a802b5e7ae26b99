import { describe, expect, it } from "vitest";
import { LIMITS } from "@/lib/x3d/options";
import { validateDepthTask } from "./depth-task";
import { formInput, MB, refusal, upload } from "./form-input.test-helpers";

const image = upload("image", "portrait.png", "png");
/** format is the one option without a default. */
const STL = { format: "3" };

describe("validateDepthTask (open-api.md 4.7)", () => {
  it("gives every absent option the spec's default and the job its values under job names", () => {
    const task = validateDepthTask(formInput(STL, [image]));
    expect(task.values).toEqual({
      model_type: "pro",
      height_relief: 1.3,
      rmbg: 1,
      degree_rmbg: 0.02,
      shape_base: 0,
      thickness_base: 1,
      width: 40,
      sculpmode: 0,
      response_format: "url",
      format: 3,
    });
    expect(task.options).toEqual({
      modelType: "pro",
      heightRelief: 1.3,
      rmbg: true,
      degreeRmbg: 0.02,
      shapeBase: 0,
      thicknessBase: 1,
      width: 40,
      sculpmode: 0,
      format: 3,
    });
    expect(task.image).toEqual({ file: image });
    expect(task.callbackUrl).toBeUndefined();
  });

  it("passes the options given to the job (a relief on a round base), and the callback", () => {
    const task = validateDepthTask(
      formInput(
        {
          model_type: "base",
          height_relief: "12.5",
          rmbg: "0",
          shape_base: "1",
          thickness_base: "2.5",
          width: "600",
          sculpmode: "1",
          format: "6",
          callback_url: "https://example.com/hook",
        },
        [image],
      ),
    );
    expect(task.options).toEqual({
      modelType: "base",
      heightRelief: 12.5,
      rmbg: false,
      degreeRmbg: 0.02,
      shapeBase: 1,
      thicknessBase: 2.5,
      width: 600,
      sculpmode: 1,
      format: 6,
    });
    expect(task.callbackUrl).toBe("https://example.com/hook");
  });

  it("requires format (10033015), listing the formats", () => {
    expect(refusal(() => validateDepthTask(formInput({}, [image])))).toEqual({
      code: 10033015,
      detail: "format is required: 1 exr, 2 png, 3 stl, 4 glb, 5 3mf, 6 bmp",
    });
  });

  it("refuses each option out of its range or step with its code, naming the field and the limits", () => {
    const cases = [
      [{ model_type: "ultra" }, 10033006, 'model_type must be one of base, pro, got "ultra"'],
      [{ height_relief: "50.1" }, 10033007, 'height_relief must be from 0.1 to 50, got "50.1"'],
      [{ rmbg: "2" }, 10033008, 'rmbg must be one of 0, 1, got "2"'],
      [{ degree_rmbg: "0.015" }, 10033009, 'degree_rmbg must be from 0 to 1 in steps of 0.01, got "0.015"'],
      [{ shape_base: "2" }, 10033010, 'shape_base must be one of 0, 1, got "2"'],
      [{ thickness_base: "20.1" }, 10033011, 'thickness_base must be from 0.1 to 20 in steps of 0.1, got "20.1"'],
      [{ width: "19" }, 10033012, 'width must be a whole number from 20 to 600, got "19"'],
      [{ sculpmode: "emboss" }, 10033013, 'sculpmode must be one of 0, 1, got "emboss"'],
      [{ response_format: "b64_json" }, 10033014, 'response_format must be one of url, got "b64_json"'],
      [{ format: "7" }, 10030002, 'format must be one of 1, 2, 3, 4, 5, 6, got "7"'],
    ] as const;
    for (const [fields, code, detail] of cases) {
      expect(
        refusal(() => validateDepthTask(formInput({ ...STL, ...fields }, [image]))),
        detail,
      ).toEqual({ code, detail });
    }
  });

  it("takes a PNG, JPEG or WebP image recognised by its first bytes, up to exactly 20 MB", () => {
    expect(LIMITS.imageBytes).toBe(20 * MB);
    for (const file of [
      upload("image", "a.png", "png"),
      upload("image", "a.jpg", "jpeg"),
      upload("image", "a.webp", "webp"),
      upload("image", "photo", "jpeg", 20 * MB),
    ]) {
      expect(validateDepthTask(formInput(STL, [file])).image, file.filename).toEqual({ file });
    }
  });

  it("takes an http(s) image URL to a png, jpg, jpeg or webp, or without an extension", () => {
    for (const url of [
      "https://example.com/a.png",
      "https://example.com/a.JPG",
      "http://example.com/a.jpeg?size=2",
      "https://example.com/a.webp",
      "https://example.com/images/42",
    ]) {
      expect(validateDepthTask(formInput({ ...STL, image_url: url })).image, url).toEqual({ url });
    }
  });

  it("refuses each bad image input with its code, naming the field and the limit", () => {
    const cases = [
      [formInput(STL), 10033001, undefined],
      [formInput({ ...STL, image_url: "  " }), 10033001, undefined],
      [formInput({ ...STL, image_url: "https://example.com/a.png" }, [image]), 10033002, undefined],
      [formInput(STL, [image, upload("image", "b.png", "png")]), 10030012, "image takes one file, got 2"],
      [formInput(STL, [upload("image", "blank.png", "png", 0)]), 10033016, 'image "blank.png" is empty'],
      [formInput(STL, [upload("image", "big.png", "png", 20 * MB + 1)]), 10033004, "image is 20.0 MB, at most 20 MB"],
      [formInput(STL, [upload("image", "big.png", "png", 31 * MB)]), 10033004, "image is 31 MB, at most 20 MB"],
      [formInput(STL, [upload("image", "anim.png", "gif")]), 10033003, 'image "anim.png" is not a PNG, JPEG or WebP image'],
      [formInput(STL, [upload("image", "robot.png", "glb")]), 10033003, 'image "robot.png" is not a PNG, JPEG or WebP image'],
      [
        formInput({ ...STL, image_url: "ftp://example.com/a.png" }),
        10033005,
        'image_url must be an http or https URL, got "ftp://example.com/a.png"',
      ],
      [
        formInput({ ...STL, image_url: "https://example.com/a.gif" }),
        10033003,
        "image_url must point to a png, jpeg or webp image, got .gif",
      ],
    ] as const;
    for (const [form, code, detail] of cases) {
      expect(
        refusal(() => validateDepthTask(form)),
        `${code} ${detail}`,
      ).toEqual({ code, detail });
    }
  });

  it("takes the URL when the image field came without files", () => {
    const form = formInput({ ...STL, image_url: "https://example.com/a.png" });
    form.files.set("image", []);
    expect(validateDepthTask(form).image).toEqual({ url: "https://example.com/a.png" });
  });

  it("checks the image first, then the options in the table's order, then the callback", () => {
    expect(refusal(() => validateDepthTask(formInput({ model_type: "ultra" }))).code).toBe(10033001);
    expect(refusal(() => validateDepthTask(formInput({ model_type: "ultra", width: "5" }, [image]))).code).toBe(10033006);
    expect(refusal(() => validateDepthTask(formInput({ callback_url: "ftp://example.com/hook" }, [image]))).code).toBe(10033015);
    expect(refusal(() => validateDepthTask(formInput({ ...STL, callback_url: "ftp://example.com/hook" }, [image])))).toEqual({
      code: 10030001,
      detail: 'callback_url must be an http or https URL, got "ftp://example.com/hook"',
    });
  });
});
