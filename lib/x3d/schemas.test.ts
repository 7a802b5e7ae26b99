import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { LIMITS, MODEL_INFO, MODELS, RESOLUTIONS } from "./options";
import {
  BalanceResponseSchema,
  DEPTH_FIELD_CODES,
  DepthCreateRequestSchema,
  EnvelopeHeadSchema,
  issueCode,
  SEGMENTATION_FIELD_CODES,
  SegmentationCreateRequestSchema,
  SPLIT_FIELD_CODES,
  SplitCreateRequestSchema,
  SUBMIT_FIELD_CODES,
  SubmitTaskRequestSchema,
  TaskResultSchema,
  TokenResponseSchema,
  type FieldCodes,
} from "./schemas";

const file = (name: string, bytes = 3) => ({ name, data: new Uint8Array(bytes) });
const image = file("a.png");

/** Catalogue codes of a failed parse ([] when it succeeds). */
function codes(schema: z.ZodType, input: unknown, fieldCodes: FieldCodes): number[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issueCode(issue, fieldCodes));
}
const submitCodes = (input: object) => codes(SubmitTaskRequestSchema, { images: image, ...input }, SUBMIT_FIELD_CODES);

describe("response schemas", () => {
  it("accepts unfinished tasks with empty or absent links, and requires url on success", () => {
    expect(TaskResultSchema.safeParse({ task_id: "t", state: "queueing" }).success).toBe(true);
    expect(TaskResultSchema.safeParse({ task_id: "t", state: "processing", id: "", cover_url: "", url: "" }).success).toBe(true);
    expect(TaskResultSchema.safeParse({ task_id: "t", state: "success", id: "t_0", cover_url: "", url: "" }).success).toBe(false);
    expect(TaskResultSchema.safeParse({ task_id: "t", state: "success", id: "t_0", url: "https://f/r.glb?t=1" }).success).toBe(true);
    expect(TaskResultSchema.safeParse({ task_id: "t", state: "done" }).success).toBe(false);
  });

  it("wants an integer code and reads token and balance answers", () => {
    expect(EnvelopeHeadSchema.safeParse({ code: 200.5, msg: "x" }).success).toBe(false);
    expect(EnvelopeHeadSchema.safeParse({ code: "200", msg: "x" }).success).toBe(false);
    const token = { code: 200, msg: "success", message: "success", data: { accessToken: "a", tokenType: "Bearer", nonce: "n" } };
    expect(TokenResponseSchema.parse(token).message).toBe("success");
    expect(BalanceResponseSchema.parse({ code: 200, msg: "success", data: { totalBalance: 3.25 } }).data.totalBalance).toBe(3.25);
    expect(BalanceResponseSchema.safeParse({ code: 200, msg: "success", data: {} }).success).toBe(false);
  });
});

describe("submit-task request", () => {
  it("allows exactly each model's resolutions", () => {
    for (const model of MODELS) {
      for (const resolution of RESOLUTIONS) {
        const allowed = MODEL_INFO[model].resolutions.includes(resolution);
        expect(submitCodes({ model, resolution }), `${model} ${resolution}`).toEqual(allowed ? [] : [10031003]);
      }
    }
  });

  it("allows request_type 2 only for models that texture an existing mesh", () => {
    for (const model of MODELS) {
      const expected = MODEL_INFO[model].texturesExistingMesh ? [] : [10031017];
      expect(submitCodes({ model, request_type: 2, mesh_url: "https://cdn.example/m.glb" }), model).toEqual(expected);
    }
    expect(submitCodes({ request_type: 2 })).toEqual([10031011]);
    expect(submitCodes({ request_type: 2, mesh_url: "https://cdn.example/m.obj" })).toEqual([10031016]);
    expect(submitCodes({ request_type: 2, mesh_url: "ftp://cdn.example/m.glb" })).toEqual([10031012]);
  });

  it("keeps pbr and shading only where the model has them, pbr only when texturing", () => {
    for (const model of MODELS) {
      const out = SubmitTaskRequestSchema.parse({ model, images: image, pbr: 0, shading: 0.7 });
      const has = MODEL_INFO[model].pbrAndShading;
      expect([out.pbr, out.shading], model).toEqual(has ? [0, 0.7] : [undefined, undefined]);
    }
    expect(SubmitTaskRequestSchema.parse({ request_type: 1, images: image, pbr: 1, shading: 0.2 })).toMatchObject({
      pbr: undefined,
      shading: 0.2,
    });
  });

  it("checks shading steps, face range, flags and formats", () => {
    expect(SubmitTaskRequestSchema.parse({ images: image, shading: 0.7000000000000001 }).shading).toBe(0.7);
    expect(submitCodes({ shading: 0.35 })).toEqual([10031020]);
    expect(submitCodes({ shading: 1.1 })).toEqual([10031020]);
    expect(submitCodes({ face: 100_000 })).toEqual([]);
    expect(submitCodes({ face: 5_000_000 })).toEqual([]);
    expect(submitCodes({ face: 5_000_001 })).toEqual([10031002]);
    expect(submitCodes({ face: 150_000.5 })).toEqual([10031002]);
    expect(submitCodes({ rmbg: 2 })).toEqual([10031019]);
    expect(submitCodes({ format: 7 })).toEqual([10030002]);
    expect(submitCodes({ model: "x3dv4.0" })).toEqual([10031006]);
    expect(submitCodes({ request_type: 4 })).toEqual([10031004]);
    expect(submitCodes({ callback_url: "not a url" })).toEqual([10030001]);
    expect(submitCodes({ callback_url: "http://localhost:3000/hook" })).toEqual([]);
  });

  it("checks images, views and their bit string", () => {
    const multi = (n: number, bit?: string) =>
      codes(SubmitTaskRequestSchema, { multi_images: Array.from({ length: n }, () => image), multi_images_bit: bit }, SUBMIT_FIELD_CODES);
    expect(multi(2, "1010")).toEqual([]);
    expect(multi(4)).toEqual([]);
    expect(multi(5)).toEqual([10031009]);
    expect(multi(2, "101")).toEqual([10031013]);
    expect(multi(2, "1a10")).toEqual([10031014]);
    expect(multi(1, "1010")).toEqual([10031015]);
    expect(multi(1, "0100")).toEqual([10031021]);
    expect(codes(SubmitTaskRequestSchema, {}, SUBMIT_FIELD_CODES)).toEqual([10031008]);
    expect(submitCodes({ multi_images: [image] })).toEqual([10031007]);
    expect(submitCodes({ images: file("a.gif") })).toEqual([10031005]);
    expect(submitCodes({ images: file("a.png", 0) })).toEqual([10031010]);
    expect(submitCodes({ images: { name: "big.png", data: new Blob([new Uint8Array(LIMITS.imageBytes + 1)]) } })).toEqual([10031001]);
    expect(submitCodes({ images: { name: "a.png", data: "bytes" } })).toEqual([10031005]);
  });
});

describe("split, depth and segmentation requests", () => {
  it("fills split defaults per model and drops what does not apply", () => {
    const mesh = file("m.glb");
    expect(SplitCreateRequestSchema.parse({ mesh })).toEqual({ mesh, model: "character", part: "a", joint: "ball", merge: "yes" });
    expect(SplitCreateRequestSchema.parse({ mesh, joint: "none", merge: "no" })).toEqual({
      mesh,
      model: "character",
      part: "a",
      joint: "none",
    });
    expect(SplitCreateRequestSchema.parse({ mesh, model: "general", part: "c" })).toEqual({ mesh, model: "general", level: "medium" });
    expect(codes(SplitCreateRequestSchema, { mesh, part: "g" }, SPLIT_FIELD_CODES)).toEqual([10032002]);
    expect(codes(SplitCreateRequestSchema, { mesh, joint: "hinge" }, SPLIT_FIELD_CODES)).toEqual([10032003]);
    expect(codes(SplitCreateRequestSchema, {}, SPLIT_FIELD_CODES)).toEqual([10030003]);
    expect(codes(SplitCreateRequestSchema, { mesh, mesh_url: "https://x/m.glb" }, SPLIT_FIELD_CODES)).toEqual([10030004]);
    expect(codes(SplitCreateRequestSchema, { mesh: file("m.fbx") }, SPLIT_FIELD_CODES)).toEqual([10030005]);
  });

  it("requires depth's format and checks its ranges and steps", () => {
    const depth = (input: object) =>
      codes(DepthCreateRequestSchema, { image_url: "https://x/a.webp", format: 1, ...input }, DEPTH_FIELD_CODES);
    expect(depth({ format: undefined })).toEqual([10033015]);
    expect(depth({ format: 6 })).toEqual([]);
    // An invalid format answers what the service answers (10030002); 10033015 is for a missing one.
    expect(depth({ format: 7 })).toEqual([10030002]);
    expect(depth({ height_relief: 50 })).toEqual([]);
    expect(depth({ height_relief: 50.1 })).toEqual([10033007]);
    expect(depth({ degree_rmbg: 0.03 })).toEqual([]);
    expect(depth({ degree_rmbg: 0.015 })).toEqual([10033009]);
    expect(depth({ thickness_base: 0.15 })).toEqual([10033011]);
    expect(depth({ thickness_base: 20.1 })).toEqual([10033011]);
    expect(depth({ width: 601 })).toEqual([10033012]);
    expect(depth({ model_type: "ultra" })).toEqual([10033006]);
    expect(depth({ response_format: "b64" })).toEqual([10033014]);
    expect(depth({ image: image })).toEqual([10033002]);
    expect(depth({ image_url: undefined })).toEqual([10033001]);
    expect(depth({ image_url: "https://x/a.tiff" })).toEqual([10033003]);
    const out = DepthCreateRequestSchema.parse({ image, format: 2, rmbg: 0, thickness_base: 1, degree_rmbg: 0.5, shape_base: 1 });
    expect(out).toMatchObject({ model_type: "pro", rmbg: 0, thickness_base: "1.0", degree_rmbg: undefined, shape_base: 1 });
    expect(DepthCreateRequestSchema.parse({ image, format: 2, degree_rmbg: 0.5, shape_base: 1 })).toMatchObject({
      rmbg: 1,
      degree_rmbg: 0.5,
      shape_base: undefined,
    });
  });

  it("takes segmentation formats 1 to 5 and the three levels", () => {
    const seg = (input: object) =>
      codes(SegmentationCreateRequestSchema, { mesh_url: "https://x/m.stl", ...input }, SEGMENTATION_FIELD_CODES);
    expect(seg({ format: 5, seg_level: "low" })).toEqual([]);
    expect(seg({ format: 6 })).toEqual([10030002]);
    expect(seg({ seg_level: "max" })).toEqual([10034001]);
    expect(seg({ mesh_url: "http:/broken" })).toEqual([10030007]);
  });
});
