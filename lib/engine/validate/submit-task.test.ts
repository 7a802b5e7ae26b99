import { describe, expect, it } from "vitest";
import { LIMITS, RESOLUTION_INFO, SUBMIT_DEFAULTS } from "@/lib/x3d/options";
import { formInput, MB, refusal, upload } from "./form-input.test-helpers";
import { submitFileLimit, validateSubmitTask } from "./submit-task";

const image = upload("images", "robot.png", "png");
const views = (names: string[]) => names.map((name, i) => upload("multi_images", `${name}.png`, i % 2 ? "jpeg" : "png"));
const viewsOf = (task: ReturnType<typeof validateSubmitTask>) => task.images.map(({ view, file }) => [view, file.filename]);
/** Texturing a given mesh: a model that can. */
const TEXTURE = { request_type: "2", model: "x3dv3.0" };

describe("validateSubmitTask: the options (open-api.md 4.2)", () => {
  it("gives every absent option the spec's default (the model's resolution, the resolution's face count)", () => {
    const task = validateSubmitTask(formInput({}, [image]));
    expect(task.values).toEqual({
      request_type: SUBMIT_DEFAULTS.requestType,
      model: SUBMIT_DEFAULTS.model,
      resolution: "2048quality",
      face: RESOLUTION_INFO["2048quality"].faces,
      format: SUBMIT_DEFAULTS.format,
      pbr: SUBMIT_DEFAULTS.pbr,
      rmbg: SUBMIT_DEFAULTS.rmbg,
      shading: SUBMIT_DEFAULTS.shading,
    });
    expect(task.options).toEqual({
      requestType: 3,
      model: "x3dv3.0",
      resolution: "2048quality",
      face: 2_000_000,
      format: 1,
      pbr: true,
      rmbg: true,
      shading: 0.5,
    });
    expect(task.images).toEqual([{ view: "front", file: image }]);
    expect(task.mesh).toBeUndefined();
    expect(task.callbackUrl).toBeUndefined();
  });

  it("passes the options given to the job, and the callback trimmed", () => {
    const task = validateSubmitTask(
      formInput(
        {
          request_type: "3",
          model: "x3dv2.1",
          resolution: "1536fast",
          face: "300000",
          format: "6",
          pbr: "0",
          rmbg: "0",
          shading: "0.3",
          callback_url: "\thttps://example.com/hook ",
        },
        [image],
      ),
    );
    expect(task.options).toEqual({
      requestType: 3,
      model: "x3dv2.1",
      resolution: "1536fast",
      face: 300_000,
      format: 6,
      pbr: false,
      rmbg: false,
      shading: 0.3,
    });
    expect(task.callbackUrl).toBe("https://example.com/hook");
  });

  it("gives the job pbr and shading off where the service ignores them, and keeps the values read", () => {
    const v15 = validateSubmitTask(formInput({ model: "x3dv1.5", pbr: "1", shading: "0.8" }, [image]));
    expect(v15.options).toMatchObject({ pbr: false, shading: 0 });
    expect(v15.values).toMatchObject({ pbr: 1, shading: 0.8 });
    const geometry = validateSubmitTask(formInput({ request_type: "1", pbr: "1", shading: "0.8" }, [image]));
    expect(geometry.options).toMatchObject({ requestType: 1, pbr: false, shading: 0.8 });
  });

  it("refuses each invalid option with its code, naming the field and what is allowed", () => {
    const cases = [
      [{ request_type: "4" }, 10031004, 'request_type must be one of 1, 2, 3, got "4"'],
      [
        { model: "x3dv9" },
        10031006,
        `model must be one of x3dv1.5, x3dv2.0, x3dv2.1, x3dv3.0, scene-portraitv1.5, scene-portraitv2.0, scene-portraitv2.1, got "x3dv9"`,
      ],
      [{ resolution: "1536" }, 10031003, 'resolution must be one of 2048quality, 2048master, got "1536"'],
      [{ face: "99999" }, 10031002, 'face must be a whole number from 100000 to 5000000, got "99999"'],
      [{ format: "0" }, 10030002, 'format must be one of 1, 2, 3, 4, 5, 6, got "0"'],
      [{ pbr: "yes" }, 10031018, 'pbr must be one of 0, 1, got "yes"'],
      [{ rmbg: "2" }, 10031019, 'rmbg must be one of 0, 1, got "2"'],
      [{ shading: "0.55" }, 10031020, 'shading must be from 0 to 1 in steps of 0.1, got "0.55"'],
      [{ request_type: "2", model: "x3dv2.0" }, 10031017, "x3dv2.0 cannot texture an existing mesh (request_type 2)"],
    ] as const;
    for (const [fields, code, detail] of cases) {
      expect(
        refusal(() => validateSubmitTask(formInput(fields, [image]))),
        detail,
      ).toEqual({ code, detail });
    }
  });

  it("checks in the contract's order: request_type, model, the images, the options, the model check, the mesh, the callback", () => {
    const code = (fields: Record<string, string>, files = [image]) => refusal(() => validateSubmitTask(formInput(fields, files))).code;
    expect(code({ request_type: "4", model: "x3dv9" }, [])).toBe(10031004);
    expect(code({ model: "x3dv9" }, [])).toBe(10031006);
    expect(code({ resolution: "64" }, [])).toBe(10031008);
    expect(code({ resolution: "64" }, [upload("images", "a.gif", "gif")])).toBe(10031005);
    expect(code({ request_type: "2", model: "x3dv2.0", pbr: "5" })).toBe(10031018);
    // The model cannot texture: said before the missing mesh.
    expect(code({ request_type: "2", model: "x3dv2.0" })).toBe(10031017);
    expect(code({ ...TEXTURE, callback_url: "ftp://example.com/hook" })).toBe(10031011);
    expect(code({ ...TEXTURE, callback_url: "ftp://example.com/hook" }, [image, upload("mesh", "m.stl", "asciiStl")])).toBe(10031016);
    expect(refusal(() => validateSubmitTask(formInput({ callback_url: "ftp://example.com/hook" }, [image])))).toEqual({
      code: 10030001,
      detail: 'callback_url must be an http or https URL, got "ftp://example.com/hook"',
    });
  });
});

describe("validateSubmitTask: the images", () => {
  it("takes one PNG, JPEG or WebP in images, up to exactly 20 MB, as the front view", () => {
    expect(LIMITS.imageBytes).toBe(20 * MB);
    for (const file of [upload("images", "a.jpg", "jpeg"), upload("images", "a.webp", "webp"), upload("images", "photo", "png", 20 * MB)]) {
      expect(validateSubmitTask(formInput({}, [file])).images, file.filename).toEqual([{ view: "front", file }]);
    }
  });

  it("reads multi_images without multi_images_bit as front, back, left, right in the order sent", () => {
    const four = views(["a", "b", "c", "d"]);
    expect(validateSubmitTask(formInput({}, four)).images).toEqual([
      { view: "front", file: four[0] },
      { view: "back", file: four[1] },
      { view: "left", file: four[2] },
      { view: "right", file: four[3] },
    ]);
    expect(viewsOf(validateSubmitTask(formInput({}, views(["f", "b"]))))).toEqual([
      ["front", "f.png"],
      ["back", "b.png"],
    ]);
    // A blank bit string is none (clients send empty defaults).
    expect(viewsOf(validateSubmitTask(formInput({ multi_images_bit: " " }, views(["f", "b", "l"]))))).toEqual([
      ["front", "f.png"],
      ["back", "b.png"],
      ["left", "l.png"],
    ]);
  });

  it("reads multi_images with multi_images_bit as the views the bit marks, in the order front, back, left, right", () => {
    const cases = [
      ["1010", ["front", "left"]],
      ["1001", ["front", "right"]],
      ["1100", ["front", "back"]],
      ["1011", ["front", "left", "right"]],
      ["1000", ["front"]],
      ["1111", ["front", "back", "left", "right"]],
    ] as const;
    for (const [bit, expected] of cases) {
      const files = views(expected.map((v) => v));
      const task = validateSubmitTask(formInput({ multi_images_bit: bit }, files));
      expect(
        task.images.map(({ view }) => view),
        bit,
      ).toEqual(expected);
      expect(task.images.map(({ file }) => file)).toEqual(files);
    }
    expect(viewsOf(validateSubmitTask(formInput({ multi_images_bit: " 1010\n" }, views(["f", "l"]))))).toEqual([
      ["front", "f.png"],
      ["left", "l.png"],
    ]);
  });

  it("ignores multi_images_bit with a single image", () => {
    expect(validateSubmitTask(formInput({ multi_images_bit: "0101" }, [image])).images).toEqual([{ view: "front", file: image }]);
  });

  it("refuses a bad multi_images_bit with its code, quoting it", () => {
    const cases = [
      ["101", 2, 10031013, 'multi_images_bit must be 4 characters, got "101"'],
      ["10100", 2, 10031013, 'multi_images_bit must be 4 characters, got "10100"'],
      ["1a10", 2, 10031014, 'multi_images_bit may contain only 0 and 1, got "1a10"'],
      ["1210", 2, 10031014, 'multi_images_bit may contain only 0 and 1, got "1210"'],
      ["1110", 2, 10031015, 'multi_images_bit "1110" marks 3 views but 2 files were sent'],
      ["1000", 2, 10031015, 'multi_images_bit "1000" marks 1 views but 2 files were sent'],
      ["0110", 2, 10031021, 'multi_images_bit "0110" has no front view'],
      ["0001", 1, 10031021, 'multi_images_bit "0001" has no front view'],
    ] as const;
    for (const [bit, count, code, detail] of cases) {
      const files = views(["a", "b", "c", "d"].slice(0, count));
      expect(
        refusal(() => validateSubmitTask(formInput({ multi_images_bit: bit }, files))),
        bit,
      ).toEqual({ code, detail });
    }
  });

  it("refuses images and multi_images together (10031007), and neither (10031008)", () => {
    expect(refusal(() => validateSubmitTask(formInput({}, [image, ...views(["f"])])))).toEqual({ code: 10031007, detail: undefined });
    expect(refusal(() => validateSubmitTask(formInput({})))).toEqual({ code: 10031008, detail: undefined });
    const emptyFields = formInput({});
    emptyFields.files.set("images", []);
    emptyFields.files.set("multi_images", []);
    expect(refusal(() => validateSubmitTask(emptyFields)).code).toBe(10031008);
  });

  it("takes one file in images and four in multi_images (10031009), naming the field and the count", () => {
    expect(refusal(() => validateSubmitTask(formInput({}, [image, upload("images", "b.png", "png")])))).toEqual({
      code: 10031009,
      detail: "images takes one file, got 2; use multi_images for views",
    });
    expect(LIMITS.multiImages).toBe(4);
    expect(refusal(() => validateSubmitTask(formInput({}, views(["a", "b", "c", "d", "e"]))))).toEqual({
      code: 10031009,
      detail: "multi_images takes at most 4 files, got 5",
    });
  });

  it("checks every file: empty (10031010), over 20 MB (10031001), not an image (10031005), naming the field and file", () => {
    const [front, back] = [upload("multi_images", "front.png", "png"), upload("multi_images", "back.jpg", "jpeg")];
    const cases = [
      [upload("images", "blank.png", "png", 0), 10031010, 'images "blank.png" is empty'],
      [upload("images", "big.png", "png", 20 * MB + 1), 10031001, 'images "big.png" is 20.0 MB, at most 20 MB'],
      [upload("images", "photo.png", "gif"), 10031005, 'images "photo.png" is not a PNG, JPEG or WebP image'],
      [upload("multi_images", "left.png", "png", 0), 10031010, 'multi_images "left.png" is empty'],
      [upload("multi_images", "left.png", "png", 25 * MB), 10031001, 'multi_images "left.png" is 25 MB, at most 20 MB'],
      [upload("multi_images", "left.png", "glb"), 10031005, 'multi_images "left.png" is not a PNG, JPEG or WebP image'],
    ] as const;
    for (const [file, code, detail] of cases) {
      // A bad view after good ones is found too.
      const files = file.field === "images" ? [file] : [front, back, file];
      expect(
        refusal(() => validateSubmitTask(formInput({}, files))),
        detail,
      ).toEqual({ code, detail });
    }
  });
});

describe("validateSubmitTask: the mesh of request_type 2", () => {
  it("takes a GLB file up to exactly 200 MB, or an http(s) URL to a .glb or without an extension", () => {
    for (const mesh of [upload("mesh", "robot.glb", "glb"), upload("mesh", "robot", "glb", 200 * MB)]) {
      expect(validateSubmitTask(formInput(TEXTURE, [image, mesh])).mesh).toEqual({ file: mesh });
    }
    for (const url of ["https://example.com/robot.glb", "HTTP://example.com/robot.GLB", "https://example.com/meshes/7"]) {
      expect(validateSubmitTask(formInput({ ...TEXTURE, mesh_url: url }, [image])).mesh, url).toEqual({ url });
    }
    const task = validateSubmitTask(formInput({ ...TEXTURE, mesh_url: "https://example.com/robot.glb" }, [image]));
    expect(task.options.requestType).toBe(2);
  });

  it("reads both the mesh and the callback", () => {
    const mesh = upload("mesh", "robot.glb", "glb");
    const task = validateSubmitTask(formInput({ ...TEXTURE, callback_url: "https://example.com/hook" }, [image, mesh]));
    expect(task.mesh).toEqual({ file: mesh });
    expect(task.callbackUrl).toBe("https://example.com/hook");
  });

  it("reads no mesh for the other request types, even a bad one", () => {
    for (const request_type of ["1", "3"]) {
      const task = validateSubmitTask(formInput({ request_type, mesh_url: "ftp://x" }, [image, upload("mesh", "m.stl", "asciiStl")]));
      expect(task.mesh).toBeUndefined();
    }
  });

  it("refuses each bad mesh input with its code, naming the field and the limit", () => {
    const cases = [
      [{}, [], 10031011, undefined],
      [{ mesh_url: " " }, [], 10031011, undefined],
      [{}, [upload("mesh", "blank.glb", "glb", 0)], 10031010, 'mesh "blank.glb" is empty'],
      [{}, [upload("mesh", "big.glb", "glb", 200 * MB + 1)], 10031001, "mesh is 200.0 MB, at most 200 MB"],
      [{}, [upload("mesh", "m.stl", "binaryStl")], 10031016, 'mesh "m.stl" is not a GLB file'],
      [{}, [upload("mesh", "m.glb", "obj")], 10031016, 'mesh "m.glb" is not a GLB file'],
      [{ mesh_url: "ftp://example.com/a.glb" }, [], 10031012, 'mesh_url must be an http or https URL, got "ftp://example.com/a.glb"'],
      [{ mesh_url: "httpx://example.com/a.glb" }, [], 10031012, 'mesh_url must be an http or https URL, got "httpx://example.com/a.glb"'],
      [{ mesh_url: "example.com/a.glb" }, [], 10031012, 'mesh_url must be an http or https URL, got "example.com/a.glb"'],
      [{ mesh_url: "https://example.com/a.obj" }, [], 10031016, "mesh_url must point to a .glb file, got .obj"],
    ] as const;
    for (const [fields, meshes, code, detail] of cases) {
      expect(
        refusal(() => validateSubmitTask(formInput({ ...TEXTURE, ...fields }, [image, ...meshes]))),
        `${code} ${detail}`,
      ).toEqual({
        code,
        detail,
      });
    }
  });
});

describe("submitFileLimit", () => {
  it("is 200 MB for the mesh and 20 MB for the images", () => {
    expect(submitFileLimit("mesh")).toBe(200 * MB);
    expect(submitFileLimit("images")).toBe(20 * MB);
    expect(submitFileLimit("multi_images")).toBe(20 * MB);
  });
});
