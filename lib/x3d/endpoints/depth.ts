/**
 * depth/create-task (open-api.md 4.7): an image to a depth map or a relief. With rmbg 1 the
 * background-removal strength applies; with rmbg 0 the base's shape and thickness do.
 */
import { DEPTH_DEFAULTS, DEPTH_FORMATS, DEPTH_MODEL_TYPES, DEPTH_RANGES } from "../options";
import { CALLBACK_INPUT, endpoint, FLAG_LABELS, type ChoiceField, type DecimalField, type IntChoiceField, type IntField } from "./field";

function depthSpec(ranges = DEPTH_RANGES) {
  const fields = {
    model_type: {
      type: "choice",
      doc: "base (1K) or pro (2K).",
      values: DEPTH_MODEL_TYPES,
      default: DEPTH_DEFAULTS.model_type,
      code: 10033006,
      clientFills: true,
      job: { name: "modelType" },
    } as const satisfies ChoiceField<(typeof DEPTH_MODEL_TYPES)[number]>,
    height_relief: {
      type: "decimal",
      doc: "Relief height.",
      min: ranges.height_relief.min,
      max: ranges.height_relief.max,
      default: ranges.height_relief.default,
      code: 10033007,
      job: { name: "heightRelief" },
    } as const satisfies DecimalField,
    rmbg: {
      type: "int-choice",
      doc: "Remove the background (1) or keep it on a base (0).",
      values: FLAG_LABELS,
      default: DEPTH_DEFAULTS.rmbg,
      code: 10033008,
      clientFills: true,
      job: { name: "rmbg", boolean: true },
    } as const satisfies IntChoiceField<0 | 1>,
    degree_rmbg: {
      type: "decimal",
      doc: "Background-removal strength (rmbg 1).",
      ...ranges.degree_rmbg,
      code: 10033009,
      job: { name: "degreeRmbg" },
    } as const satisfies DecimalField,
    shape_base: {
      type: "int-choice",
      doc: "The base's shape (rmbg 0).",
      values: { 0: "square", 1: "circle" },
      default: DEPTH_DEFAULTS.shape_base,
      code: 10033010,
      job: { name: "shapeBase" },
    } as const satisfies IntChoiceField<0 | 1>,
    thickness_base: {
      type: "decimal",
      doc: "The base's thickness in millimetres (rmbg 0); sent with one decimal.",
      ...ranges.thickness_base,
      wireDecimals: 1,
      code: 10033011,
      job: { name: "thicknessBase" },
    } as const satisfies DecimalField,
    width: {
      type: "int",
      doc: "Width of the relief in millimetres.",
      min: ranges.width.min,
      max: ranges.width.max,
      default: ranges.width.default,
      code: 10033012,
      job: { name: "width" },
    } as const satisfies IntField,
    sculpmode: {
      type: "int-choice",
      doc: "0 emboss, 1 engrave.",
      values: { 0: "emboss", 1: "engrave" },
      default: DEPTH_DEFAULTS.sculpmode,
      code: 10033013,
      job: { name: "sculpmode" },
    } as const satisfies IntChoiceField<0 | 1>,
    response_format: {
      type: "choice",
      doc: "How the result is given: a URL.",
      values: [DEPTH_DEFAULTS.response_format],
      default: DEPTH_DEFAULTS.response_format,
      code: 10033014,
      form: { omit: true },
    } as const satisfies ChoiceField<"url">,
    format: {
      type: "int-choice",
      doc: "Output format; 6 is bmp here (3mf in image-to-3D).",
      values: DEPTH_FORMATS,
      code: 10030002,
      requiredCode: 10033015,
      // A printable relief (STL) is what most people come for; depth images are a choice away.
      form: { required: true, start: 3 },
      job: { name: "format" },
    } as const satisfies IntChoiceField<keyof typeof DEPTH_FORMATS>,
  } as const;
  return endpoint({
    path: "/depth/create-task",
    summary: "An image to a depth map or a printable relief.",
    fields,
    rules: {
      degree_rmbg: { applies: (v) => v.rmbg === 1, doc: "Only with rmbg 1." },
      shape_base: { applies: (v) => v.rmbg === 0, doc: "Only with rmbg 0." },
      thickness_base: { applies: (v) => v.rmbg === 0, doc: "Only with rmbg 0." },
    },
    table: [
      "image",
      "image_url",
      "model_type",
      "height_relief",
      "rmbg",
      "degree_rmbg",
      "shape_base",
      "thickness_base",
      "width",
      "sculpmode",
      "response_format",
      "format",
      "callback_url",
    ],
    inputs: {
      image: {
        kind: "file",
        doc: "The image: PNG, JPEG or WebP, at most 20 MB.",
        codes: [10033001, 10033002, 10033003, 10033004, 10033016, 10030012],
      },
      image_url: { kind: "url", doc: "Or the image's http(s) URL.", codes: [10033003, 10033005] },
      ...CALLBACK_INPUT,
    },
    cost: (table) => table.depth,
    scheme: "Bearer",
    query: { path: "/depth/query-task", scheme: "Bearer" },
    order: [
      { input: "image" },
      "model_type",
      "height_relief",
      "rmbg",
      "degree_rmbg",
      "shape_base",
      "thickness_base",
      "width",
      "sculpmode",
      "response_format",
      "format",
      { input: "callback_url" },
    ],
  });
}

export const DEPTH_SPEC = depthSpec();
export type DepthSpec = typeof DEPTH_SPEC;
