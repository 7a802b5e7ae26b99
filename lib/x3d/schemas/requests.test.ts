/**
 * The request schemas' own checks (inputs, views, meshes): each problem on the field it
 * concerns, with a sentence saying what is wrong and the catalogue code the client throws.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { DepthCreateRequestSchema } from "./depth";
import { SubmitTaskRequestSchema } from "./image-to-3d";
import { SegmentationCreateRequestSchema, SplitCreateRequestSchema } from "./mesh-tasks";

const png = (name = "a.png") => ({ name, data: new Uint8Array(3) });
const glb = { name: "m.glb", data: new Uint8Array(3) };

/** Each issue as path, message and catalogue code. */
function problems(schema: z.ZodType, input: unknown) {
  return schema.safeParse(input).error?.issues.map((i) => ({
    path: i.path.join("."),
    message: i.message,
    code: (i as { params?: { x3dCode?: number } }).params?.x3dCode,
  }));
}

describe("submit-task's inputs", () => {
  it("wants one image or some views, not both", () => {
    expect(problems(SubmitTaskRequestSchema, {})).toEqual([
      { path: "images", message: "images or multi_images is required", code: 10031008 },
    ]);
    expect(problems(SubmitTaskRequestSchema, { images: png(), multi_images: [png()] })).toEqual([
      { path: "images", message: "give images or multi_images, not both", code: 10031007 },
    ]);
    expect(problems(SubmitTaskRequestSchema, { images: png(), multi_images: [] })).toBeUndefined();
  });

  it("takes four views at most, counting them", () => {
    expect(problems(SubmitTaskRequestSchema, { multi_images: [png(), png(), png(), png(), png()] })).toEqual([
      { path: "multi_images", message: "at most 4 views, got 5", code: 10031009 },
    ]);
  });

  it("checks the bit string's length, characters, count and front view, in that order", () => {
    const views = (n: number, bit: string) =>
      problems(SubmitTaskRequestSchema, { multi_images: Array.from({ length: n }, () => png()), multi_images_bit: bit });
    expect(views(2, "10100")).toEqual([
      { path: "multi_images_bit", message: 'multi_images_bit must have 4 characters, got "10100"', code: 10031013 },
    ]);
    expect(views(2, "1x10")).toEqual([
      { path: "multi_images_bit", message: 'multi_images_bit may hold only 0 and 1, got "1x10"', code: 10031014 },
    ]);
    expect(views(3, "1010")).toEqual([
      { path: "multi_images_bit", message: 'multi_images_bit "1010" marks 2 views but 3 multi_images were given', code: 10031015 },
    ]);
    expect(views(2, "0110")).toEqual([{ path: "multi_images_bit", message: "the front view is required", code: 10031021 }]);
    expect(views(3, "0111")).toEqual([{ path: "multi_images_bit", message: "the front view is required", code: 10031021 }]);
    expect(views(4, "1111")).toBeUndefined();
  });

  it("wants a mesh to texture, once, and sends it only for request_type 2", () => {
    expect(problems(SubmitTaskRequestSchema, { images: png(), request_type: 2 })).toEqual([
      { path: "mesh", message: "request_type 2 needs mesh or mesh_url", code: 10031011 },
    ]);
    expect(problems(SubmitTaskRequestSchema, { images: png(), request_type: 2, mesh: glb, mesh_url: "https://cdn.example/m.glb" })).toEqual(
      [{ path: "mesh", message: "give mesh or mesh_url, not both", code: 10030004 }],
    );
    const geometry = SubmitTaskRequestSchema.parse({ images: png(), mesh: glb, mesh_url: "https://cdn.example/m.glb" });
    expect(geometry).toMatchObject({ mesh: undefined, mesh_url: undefined });
    expect(SubmitTaskRequestSchema.parse({ images: png(), request_type: 2, mesh: glb }).mesh).toEqual(glb);
    expect(SubmitTaskRequestSchema.parse({ images: png(), request_type: 2, mesh_url: "https://cdn.example/m.glb" }).mesh_url).toBe(
      "https://cdn.example/m.glb",
    );
  });
});

describe("depth's image", () => {
  it("wants an image file or URL, not both", () => {
    expect(problems(DepthCreateRequestSchema, { format: 1 })).toEqual([
      { path: "image", message: "image or image_url is required", code: 10033001 },
    ]);
    expect(problems(DepthCreateRequestSchema, { format: 1, image: png(), image_url: "https://cdn.example/a.png" })).toEqual([
      { path: "image", message: "give image or image_url, not both", code: 10033002 },
    ]);
  });
});

describe("the mesh of split and segmentation", () => {
  it.each([
    ["split", SplitCreateRequestSchema],
    ["segmentation", SegmentationCreateRequestSchema],
  ])("%s wants a mesh file or URL, not both", (_, schema) => {
    expect(problems(schema, {})).toEqual([{ path: "mesh", message: "mesh or mesh_url is required", code: 10030003 }]);
    expect(problems(schema, { mesh: glb, mesh_url: "https://cdn.example/m.glb" })).toEqual([
      { path: "mesh", message: "give mesh or mesh_url, not both", code: 10030004 },
    ]);
  });

  it("segmentation checks its options too", () => {
    expect(problems(SegmentationCreateRequestSchema, { mesh: glb, format: 6 })?.map((p) => p.path)).toEqual(["format"]);
    expect(SegmentationCreateRequestSchema.parse({ mesh: glb, seg_level: "low" })).toEqual({ mesh: glb, seg_level: "low" });
  });
});
