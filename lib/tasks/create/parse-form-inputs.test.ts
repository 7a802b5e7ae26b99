// The create forms' inputs (ids, URLs, sources) and how their problems are keyed and worded.
import { describe, expect, it } from "vitest";
import { ERRORS } from "@/lib/x3d/errors";
import {
  IdSchema,
  parseDepthTaskForm,
  parseImageTaskForm,
  parseLookupForm,
  parseMeshSource,
  parseSegmentationTaskForm,
  parseSplitTaskForm,
  parseTextureTaskForm,
  urlProblem,
} from "./parse-form";

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};
const IMAGE = { model: "x3dv1.5", resolution: "512", face: "500000", format: "2", rmbg: "1", request_type: "3" };
const user = (code: keyof typeof ERRORS) => ERRORS[code].user;

describe("ids", () => {
  it("are 1 to 200 printable id characters, trimmed", () => {
    expect(IdSchema.parse("  a.b:c-d_9 ")).toBe("a.b:c-d_9");
    expect(IdSchema.safeParse("x".repeat(200)).success).toBe(true);
    expect(IdSchema.safeParse("x".repeat(201)).success).toBe(false);
    expect(IdSchema.safeParse("").success).toBe(false);
    expect(IdSchema.safeParse("a/b").success).toBe(false);
    expect(IdSchema.safeParse("a b").success).toBe(false);
    expect(IdSchema.safeParse("x\ny").error?.issues[0]?.message).toBe("That id is not valid.");
  });
});

describe("urlProblem", () => {
  const rules = { extensions: ["glb"], badUrl: 10031012, badType: 10031016 } as const;
  it("refuses URLs that are not http(s), and file types not allowed", () => {
    expect(urlProblem("ftp://h.test/a.glb", rules)).toBe(user(10031012));
    expect(urlProblem("not a url", rules)).toBe(user(10031012));
    expect(urlProblem("https://h.test/a.obj", rules)).toBe(user(10031016));
  });
  it("takes allowed types, and paths without an extension (the service checks what it gets)", () => {
    expect(urlProblem("https://h.test/a.GLB?x=1.obj", rules)).toBeUndefined();
    expect(urlProblem("https://h.test/download", rules)).toBeUndefined();
  });
});

describe("parseMeshSource", () => {
  it("takes the upload by default, and an earlier task when asked", () => {
    expect(parseMeshSource(form({ mesh: " m1 " }))).toEqual({ ok: true, value: { source: "upload", upload: "m1" } });
    expect(parseMeshSource(form({ mesh_source: "upload", mesh: "m1", mesh_task: "t1" }))).toEqual({
      ok: true,
      value: { source: "upload", upload: "m1" },
    });
    expect(parseMeshSource(form({ mesh_source: "task", mesh: "m1", mesh_task: "t1" }))).toEqual({
      ok: true,
      value: { source: "task", task: "t1" },
    });
  });

  it("names the mesh field when the chosen id is missing or not an id", () => {
    expect(parseMeshSource(form({ mesh_source: "task", mesh: "m1" }))).toEqual({ ok: false, fields: { mesh: user(10030003) } });
    expect(parseMeshSource(form({ mesh: "../m" }))).toEqual({ ok: false, fields: { mesh: user(10030003) } });
  });

  it("requires a URL when the source is a URL, trimmed", () => {
    expect(parseMeshSource(form({ mesh_source: "url", mesh_url: "   ", mesh: "m1" }))).toEqual({
      ok: false,
      fields: { mesh_url: user(10030003) },
    });
    expect(parseMeshSource(form({ mesh_source: "url" }))).toEqual({ ok: false, fields: { mesh_url: user(10030003) } });
    expect(parseMeshSource(form({ mesh_source: "url", mesh_url: " https://h.test/m.stl " }))).toEqual({
      ok: true,
      value: { source: "url", url: "https://h.test/m.stl" },
    });
    expect(parseMeshSource(form({ mesh_source: "url", mesh_url: "mailto:a@b.test" }))).toEqual({
      ok: false,
      fields: { mesh_url: user(10030007) },
    });
  });
});

describe("image-to-3D form inputs", () => {
  it("treats blank option fields as absent, so defaults apply", () => {
    const parsed = parseImageTaskForm(form({ ...IMAGE, images: "u", format: "  ", rmbg: "" }));
    expect(parsed.ok && parsed.value.options).toMatchObject({ format: 2, rmbg: 1 });
  });

  it("reports the option problems and the missing input together", () => {
    expect(parseImageTaskForm(form({ ...IMAGE, model: "nope" }))).toEqual({
      ok: false,
      fields: { model: user(10031006), images: user(10031008) },
    });
    expect(parseImageTaskForm(form({ ...IMAGE, model: "nope", mode: "multi", view_front: "f" }))).toEqual({
      ok: false,
      fields: { model: user(10031006) },
    });
    expect(parseImageTaskForm(form({ ...IMAGE, request_type: "2", mode: "multi" }))).toEqual({
      ok: false,
      fields: { request_type: user(10031004), multi_images_bit: user(10031021) },
    });
  });

  it("trims option values before reading them", () => {
    const parsed = parseImageTaskForm(form({ ...IMAGE, model: " x3dv1.5 ", resolution: "512 ", format: " 3", images: "u" }));
    expect(parsed.ok && parsed.value.options).toMatchObject({ model: "x3dv1.5", resolution: "512", format: 3 });
  });

  it("takes every view given, and skips ids that are not ids", () => {
    const parsed = parseImageTaskForm(
      form({ ...IMAGE, mode: "multi", view_front: "f", view_back: "b", view_left: "a b", view_right: "r", images: "ignored" }),
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        options: expect.objectContaining({ model: "x3dv1.5", request_type: 3 }),
        input: { mode: "multi", views: { front: "f", back: "b", right: "r" } },
      },
    });
    // Views not given are not there at all (not there as empty slots).
    const two = parseImageTaskForm(form({ ...IMAGE, mode: "multi", view_front: "f", view_right: "r" }));
    expect(two.ok && two.value.input.mode === "multi" && Object.keys(two.value.input.views)).toEqual(["front", "right"]);
  });
});

describe("texture form inputs", () => {
  const TEXTURE = { model: "x3dv3.0", resolution: "2048quality", format: "2", images: "img", mesh: "m1" };

  it("always sends request type 2, whatever the form says", () => {
    const parsed = parseTextureTaskForm(form({ ...TEXTURE, request_type: "3" }));
    expect(parsed.ok && parsed.value.options.request_type).toBe(2);
  });

  it("requires an image, and names every problem at once", () => {
    expect(parseTextureTaskForm(form({ ...TEXTURE, images: "" }))).toEqual({ ok: false, fields: { images: user(10031008) } });
    expect(parseTextureTaskForm(form({ model: "x3dv2.0", resolution: "1536", mesh_source: "url", mesh_url: "" }))).toEqual({
      ok: false,
      fields: { model: user(10031017), mesh_url: user(10031011), images: user(10031008) },
    });
  });
});

describe("split and segmentation form inputs", () => {
  it("need a mesh, named with the options' problems", () => {
    expect(parseSplitTaskForm(form({ part: "z" }))).toEqual({
      ok: false,
      fields: { part: user(10032002), mesh: user(10030003) },
    });
    expect(parseSplitTaskForm(form({}))).toEqual({ ok: false, fields: { mesh: user(10030003) } });
    expect(parseSegmentationTaskForm(form({ format: "0" }))).toEqual({
      ok: false,
      fields: { format: user(10030002), mesh: user(10030003) },
    });
    expect(parseSegmentationTaskForm(form({ mesh_source: "url", mesh_url: "https://h.test/m.ply" }))).toEqual({
      ok: false,
      fields: { mesh_url: user(10030005) },
    });
  });

  it("give the mesh and options when both are good", () => {
    expect(parseSegmentationTaskForm(form({ mesh: "m" }))).toEqual({
      ok: true,
      value: { options: { seg_level: "medium", format: 2 }, mesh: { source: "upload", upload: "m" } },
    });
    expect(parseSplitTaskForm(form({ mesh_source: "url", mesh_url: "https://h.test/m.glb" }))).toMatchObject({
      ok: true,
      value: { mesh: { source: "url", url: "https://h.test/m.glb" } },
    });
  });
});

describe("depth form inputs", () => {
  const DEPTH = { format: "3", rmbg: "1" };

  it("takes an earlier task's cover, an upload, or a URL", () => {
    expect(parseDepthTaskForm(form({ ...DEPTH, image_source: "task", image_task: "t1", image: "u1" }))).toMatchObject({
      ok: true,
      value: { image: { source: "task", task: "t1" } },
    });
    expect(parseDepthTaskForm(form({ ...DEPTH, image: "u1", image_task: "t1" }))).toMatchObject({
      ok: true,
      value: { image: { source: "upload", upload: "u1" } },
    });
    expect(parseDepthTaskForm(form({ ...DEPTH, image_source: "url", image_url: " https://h.test/p.JPG " }))).toMatchObject({
      ok: true,
      value: { image: { source: "url", url: "https://h.test/p.JPG" } },
    });
  });

  it("takes PNG, JPEG and WebP URLs", () => {
    for (const name of ["p.png", "p.jpeg", "p.jpg", "p.webp"])
      expect(parseDepthTaskForm(form({ ...DEPTH, image_source: "url", image_url: `https://h.test/${name}` })).ok).toBe(true);
  });

  it("names the image field of the source chosen", () => {
    expect(parseDepthTaskForm(form({ ...DEPTH, image_source: "task", image: "u1" }))).toEqual({
      ok: false,
      fields: { image: user(10033001) },
    });
    expect(parseDepthTaskForm(form({ ...DEPTH, image_source: "url", image: "u1" }))).toEqual({
      ok: false,
      fields: { image_url: user(10033001) },
    });
    expect(parseDepthTaskForm(form({ ...DEPTH, image_source: "url", image_url: "https://h.test/p.gif" }))).toEqual({
      ok: false,
      fields: { image_url: user(10033003) },
    });
  });

  it("refuses bad options even with a good image", () => {
    expect(parseDepthTaskForm(form({ format: "9", rmbg: "1", image: "u1" }))).toEqual({
      ok: false,
      fields: { format: user(10030002) },
    });
    expect(parseDepthTaskForm(form({ rmbg: "1", image: "u1" }))).toEqual({ ok: false, fields: { format: user(10033015) } });
  });
});

describe("look-up form", () => {
  it("names the field for a missing or malformed id", () => {
    expect(parseLookupForm(form({ task_id: "   " }))).toEqual({ ok: false, fields: { task_id: user(10030009) } });
    expect(parseLookupForm(form({}))).toEqual({ ok: false, fields: { task_id: user(10030009) } });
    expect(parseLookupForm(form({ task_id: "a/b" }))).toEqual({ ok: false, fields: { task_id: user(10030010) } });
  });
});
