import { describe, expect, it } from "vitest";
import { ERRORS } from "@/lib/x3d/errors";
import {
  parseDepthTaskForm,
  parseImageTaskForm,
  parseLookupForm,
  parseMeshSource,
  parseSegmentationTaskForm,
  parseSplitTaskForm,
  parseTextureTaskForm,
} from "./parse-form";
import { initialDepthOptions, initialImageOptions, initialSplitOptions } from "./starting-values";

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};
const IMAGE = { model: "x3dv3.0", resolution: "2048quality", face: "2000000", format: "2", rmbg: "1", pbr: "1", shading: "0.5" };

describe("image-to-3D form", () => {
  it("takes one image and the model's options", () => {
    const parsed = parseImageTaskForm(form({ ...IMAGE, mode: "single", images: "up1", request_type: "3" }));
    expect(parsed).toEqual({
      ok: true,
      value: {
        options: {
          request_type: 3,
          model: "x3dv3.0",
          resolution: "2048quality",
          pbr: 1,
          shading: 0.5,
          face: 2_000_000,
          format: 2,
          rmbg: 1,
        },
        input: { mode: "single", image: "up1" },
      },
    });
  });

  it("takes views by slot and requires the front one", () => {
    const views = parseImageTaskForm(form({ ...IMAGE, mode: "multi", view_front: "f", view_left: "l", view_back: "" }));
    expect(views.ok && views.value.input).toEqual({ mode: "multi", views: { front: "f", left: "l" } });
    const noFront = parseImageTaskForm(form({ ...IMAGE, mode: "multi", view_back: "b" }));
    expect(noFront).toEqual({ ok: false, fields: { multi_images_bit: ERRORS[10031021].user } });
  });

  it("refuses what the matrix refuses, with the catalogue's sentences by field", () => {
    const parsed = parseImageTaskForm(
      form({ ...IMAGE, model: "x3dv1.5", resolution: "2048quality", face: "99", shading: "0.45", mode: "single" }),
    );
    expect(parsed).toEqual({
      ok: false,
      fields: { resolution: ERRORS[10031003].user, face: ERRORS[10031002].user, images: ERRORS[10031008].user },
    });
    expect(parseImageTaskForm(form({ ...IMAGE, images: "u", model: "x3dv9" }))).toMatchObject({ fields: { model: ERRORS[10031006].user } });
    expect(parseImageTaskForm(form({ ...IMAGE, images: "u", face: "" }))).toMatchObject({ fields: { face: ERRORS[10031002].user } });
    expect(parseImageTaskForm(form({ ...IMAGE, images: "u", format: "9" }))).toMatchObject({ fields: { format: ERRORS[10030002].user } });
    // Texturing has its own form.
    expect(parseImageTaskForm(form({ ...IMAGE, images: "u", request_type: "2" }))).toMatchObject({
      fields: { request_type: ERRORS[10031004].user },
    });
    // Shading is not checked where it does not apply.
    expect(
      parseImageTaskForm(form({ ...IMAGE, images: "u", model: "x3dv1.5", resolution: "512", face: "500000", shading: "0.45" })).ok,
    ).toBe(true);
  });

  it("refuses ids that are not ids", () => {
    expect(parseImageTaskForm(form({ ...IMAGE, images: "../../etc/passwd" }))).toMatchObject({ fields: { images: ERRORS[10031008].user } });
  });
});

describe("texture form", () => {
  const TEXTURE = { ...IMAGE, images: "img", mesh_source: "upload", mesh: "m1" };

  it("takes a mesh, an image and a model that can texture, as request type 2 without a face count", () => {
    const parsed = parseTextureTaskForm(form({ ...TEXTURE, face: "" }));
    expect(parsed.ok && parsed.value).toMatchObject({
      options: { request_type: 2, model: "x3dv3.0" },
      image: "img",
      mesh: { source: "upload", upload: "m1" },
    });
  });

  it("refuses models that cannot texture, and a missing mesh", () => {
    const parsed = parseTextureTaskForm(form({ ...TEXTURE, model: "x3dv2.0", resolution: "1536", mesh: "" }));
    expect(parsed).toEqual({ ok: false, fields: { model: ERRORS[10031017].user, mesh: ERRORS[10031011].user } });
  });

  it("takes GLB URLs only", () => {
    expect(parseTextureTaskForm(form({ ...TEXTURE, mesh_source: "url", mesh_url: "https://x.test/a.stl" }))).toMatchObject({
      fields: { mesh_url: ERRORS[10031016].user },
    });
    expect(parseTextureTaskForm(form({ ...TEXTURE, mesh_source: "url", mesh_url: "ftp://x.test/a.glb" }))).toMatchObject({
      fields: { mesh_url: ERRORS[10031012].user },
    });
    expect(parseTextureTaskForm(form({ ...TEXTURE, mesh_source: "url", mesh_url: "https://x.test/a.glb" })).ok).toBe(true);
  });
});

describe("mesh source", () => {
  it("reads an upload, a URL or an earlier task", () => {
    expect(parseMeshSource(form({ mesh_source: "task", mesh_task: "t1" }))).toEqual({ ok: true, value: { source: "task", task: "t1" } });
    expect(parseMeshSource(form({ mesh_source: "url", mesh_url: "http://h.test/m.obj" }))).toEqual({
      ok: true,
      value: { source: "url", url: "http://h.test/m.obj" },
    });
    expect(parseMeshSource(form({ mesh_source: "url", mesh_url: "http://h.test/m.fbx" }))).toEqual({
      ok: false,
      fields: { mesh_url: ERRORS[10030005].user },
    });
    expect(parseMeshSource(form({ mesh_source: "upload" }))).toEqual({ ok: false, fields: { mesh: ERRORS[10030003].user } });
  });
});

describe("split form", () => {
  it("fills defaults and validates choices", () => {
    const parsed = parseSplitTaskForm(form({ mesh_source: "upload", mesh: "m", model: "general", level: "high" }));
    expect(parsed.ok && parsed.value.options).toEqual({
      model: "general",
      part: "a",
      joint: "ball",
      merge: "yes",
      level: "high",
      format: 2,
    });
    expect(parseSplitTaskForm(form({ mesh_source: "upload", mesh: "m", part: "z", joint: "glue" }))).toEqual({
      ok: false,
      fields: { part: ERRORS[10032002].user, joint: ERRORS[10032003].user },
    });
  });
});

describe("depth form", () => {
  const DEPTH = { image_source: "upload", image: "img", format: "3", rmbg: "1", degree_rmbg: "0.05", width: "40", height_relief: "2" };

  it("reads the fields of the rmbg mode and ignores the others", () => {
    const parsed = parseDepthTaskForm(form({ ...DEPTH, thickness_base: "999" }));
    expect(parsed.ok && parsed.value).toMatchObject({
      options: { rmbg: 1, degree_rmbg: 0.05, format: 3 },
      image: { source: "upload", upload: "img" },
    });
    const off = parseDepthTaskForm(form({ ...DEPTH, rmbg: "0", degree_rmbg: "7", thickness_base: "2.5", shape_base: "1" }));
    expect(off.ok && off.value.options).toMatchObject({ rmbg: 0, thickness_base: 2.5, shape_base: 1 });
  });

  it("checks ranges and steps, and requires a format and an image", () => {
    const parsed = parseDepthTaskForm(form({ image_source: "upload", rmbg: "1", degree_rmbg: "0.015", width: "700", height_relief: "0" }));
    expect(parsed).toEqual({ ok: false, fields: { format: ERRORS[10033015].user, image: ERRORS[10033001].user } });
    const ranges = parseDepthTaskForm(form({ ...DEPTH, degree_rmbg: "0.015", width: "700", height_relief: "0" }));
    expect(ranges).toEqual({
      ok: false,
      fields: { height_relief: ERRORS[10033007].user, degree_rmbg: ERRORS[10033009].user, width: ERRORS[10033012].user },
    });
    expect(parseDepthTaskForm(form({ ...DEPTH, rmbg: "0", thickness_base: "0.25" }))).toMatchObject({
      fields: { thickness_base: ERRORS[10033011].user },
    });
    expect(parseDepthTaskForm(form({ ...DEPTH, width: "abc" }))).toMatchObject({ fields: { width: ERRORS[10033012].user } });
  });

  it("takes an image URL instead of an upload", () => {
    const parsed = parseDepthTaskForm(form({ ...DEPTH, image_source: "url", image_url: "https://h.test/p.webp" }));
    expect(parsed.ok && parsed.value.image).toEqual({ source: "url", url: "https://h.test/p.webp" });
    expect(parseDepthTaskForm(form({ ...DEPTH, image_source: "url", image_url: "h.test/p.png" }))).toMatchObject({
      fields: { image_url: ERRORS[10033005].user },
    });
  });
});

describe("segmentation forms", () => {
  it("reads level and format (1..5)", () => {
    const parsed = parseSegmentationTaskForm(form({ mesh_source: "task", mesh_task: "t", seg_level: "high", format: "5" }));
    expect(parsed.ok && parsed.value.options).toEqual({ seg_level: "high", format: 5 });
    expect(parseSegmentationTaskForm(form({ mesh_source: "task", mesh_task: "t", format: "6" }))).toMatchObject({
      fields: { format: ERRORS[10030002].user },
    });
  });

  it("reads a task id to look up", () => {
    expect(parseLookupForm(form({ task_id: " segmentation_20250101_ab " }))).toEqual({
      ok: true,
      value: { taskId: "segmentation_20250101_ab" },
    });
    expect(parseLookupForm(form({ task_id: "" }))).toEqual({ ok: false, fields: { task_id: ERRORS[10030009].user } });
  });
});

describe("starting values from an earlier task", () => {
  it("keeps valid stored options and fixes the rest by the matrix", () => {
    expect(initialImageOptions(undefined)).toMatchObject({ model: "x3dv3.0", resolution: "2048quality", face: 2_000_000, format: 2 });
    const stored = { request_type: 1, model: "x3dv1.5", resolution: "512", face: 600000, format: 3, rmbg: 0 };
    expect(initialImageOptions(stored)).toMatchObject({
      request_type: 1,
      model: "x3dv1.5",
      resolution: "512",
      face: 600_000,
      format: 3,
      rmbg: 0,
    });
    expect(initialImageOptions({ model: "x3dv2.0", resolution: "2048master", face: 9 })).toMatchObject({
      model: "x3dv2.0",
      resolution: "1536",
      face: 2_000_000,
    });
  });

  it("keeps texture tasks on models that can texture", () => {
    expect(initialImageOptions({ model: "x3dv2.1" }, true)).toMatchObject({ model: "x3dv3.0", request_type: 2 });
    expect(initialImageOptions({ model: "x3dv1.5", resolution: "1024" }, true)).toMatchObject({
      model: "x3dv1.5",
      resolution: "1024",
      request_type: 2,
    });
  });

  it("restores split and depth options", () => {
    expect(initialSplitOptions({ model: "general", level: "low", format: 3, part: "zz" })).toEqual({
      model: "general",
      part: "a",
      joint: "ball",
      merge: "yes",
      level: "low",
      format: 3,
    });
    expect(initialDepthOptions({ rmbg: 0, thickness_base: 2.5, format: 4 })).toMatchObject({
      rmbg: 0,
      thickness_base: 2.5,
      format: 4,
      width: 40,
    });
  });
});
