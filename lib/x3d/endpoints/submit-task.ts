/**
 * submit-task (open-api.md 4.2 and the addendum): every option field, its rules and its codes,
 * in the order the service checks them. The model matrix (resolutions, prices, which models
 * texture or take pbr) is lib/x3d/options; the face range is FACE_RANGE there.
 */
import {
  FACE_RANGE,
  MESH_FORMATS,
  MODEL_INFO,
  MODELS,
  RESOLUTION_INFO,
  RESOLUTIONS,
  SHADING_RANGE,
  SUBMIT_DEFAULTS,
  type Model,
} from "../options";
import { imageTo3dCost } from "../costs";
import {
  CALLBACK_INPUT,
  endpoint,
  FLAG_LABELS,
  type ChoiceField,
  type DecimalField,
  type IntChoiceField,
  type IntField,
  type ValuesOf,
} from "./field";

function submitTaskSpec(info = MODEL_INFO, faces: { min: number; max: number } = FACE_RANGE) {
  const fields = {
    request_type: {
      type: "int-choice",
      doc: "1 geometry only, 2 texture the given mesh, 3 geometry and texture.",
      values: { 1: "geometry", 2: "texture", 3: "geometry and texture" },
      default: SUBMIT_DEFAULTS.requestType,
      code: 10031004,
      clientFills: true,
      job: { name: "requestType" },
    } as const satisfies IntChoiceField<1 | 2 | 3>,
    model: {
      type: "choice",
      doc: "The generation model.",
      values: MODELS,
      labels: Object.fromEntries(MODELS.map((m) => [m, info[m].label])) as Record<Model, string>,
      default: SUBMIT_DEFAULTS.model,
      code: 10031006,
      clientFills: true,
      form: { required: true },
      job: { name: "model" },
    } as const satisfies ChoiceField<Model>,
    resolution: {
      type: "choice",
      doc: "Each model offers its own resolutions; the default is the model's standard one.",
      values: RESOLUTIONS,
      code: 10031003,
      form: { required: true },
      job: { name: "resolution" },
    } as const satisfies ChoiceField<(typeof RESOLUTIONS)[number]>,
    face: {
      type: "int",
      doc: "Target triangle count; the default is the resolution's recommended count.",
      min: faces.min,
      max: faces.max,
      code: 10031002,
      form: { required: true },
      job: { name: "face" },
    } as const satisfies IntField,
    format: {
      type: "int-choice",
      doc: "Output format.",
      values: MESH_FORMATS,
      default: SUBMIT_DEFAULTS.format,
      code: 10030002,
      // GLB rather than the service's default OBJ: one file the viewer draws and later tasks take as input.
      form: { start: 2 },
      job: { name: "format" },
    } as const satisfies IntChoiceField<keyof typeof MESH_FORMATS>,
    pbr: {
      type: "int-choice",
      doc: "Physically based materials (v2.0, v2.1 and v3.0 families, when a texture is made).",
      values: FLAG_LABELS,
      default: SUBMIT_DEFAULTS.pbr,
      code: 10031018,
      job: { name: "pbr", boolean: true },
    } as const satisfies IntChoiceField<0 | 1>,
    rmbg: {
      type: "int-choice",
      doc: "Remove the image background first.",
      values: FLAG_LABELS,
      default: SUBMIT_DEFAULTS.rmbg,
      code: 10031019,
      job: { name: "rmbg", boolean: true },
    } as const satisfies IntChoiceField<0 | 1>,
    shading: {
      type: "decimal",
      doc: "De-shading strength (v2.0, v2.1 and v3.0 families).",
      ...SHADING_RANGE,
      default: SUBMIT_DEFAULTS.shading,
      code: 10031020,
      job: { name: "shading" },
    } as const satisfies DecimalField,
  } as const;
  type V = ValuesOf<typeof fields>;
  const pbrAndShading = (v: Pick<V, "model">) => info[v.model].pbrAndShading;
  const familyText = MODELS.filter((m) => info[m].pbrAndShading).join(", ");
  return endpoint({
    path: "/submit-task",
    summary: "Image to 3D: one image or up to four views to a textured mesh; or texture a given GLB (request_type 2).",
    fields,
    rules: {
      resolution: {
        doc: MODELS.map((m) => `${m}: ${info[m].resolutions.join(", ")} (default ${info[m].defaultResolution})`).join("; "),
        allowed: (v) => info[v.model].resolutions,
        default: (v) => info[v.model].defaultResolution,
      },
      face: {
        doc: RESOLUTIONS.map((r) => `${r}: ${RESOLUTION_INFO[r].faces}`).join("; "),
        default: (v) => RESOLUTION_INFO[v.resolution].faces,
        // The studio does not ask for a face count when texturing an existing mesh.
        formApplies: (v) => v.request_type !== 2,
      },
      pbr: {
        applies: (v) => pbrAndShading(v) && v.request_type !== 1,
        ignored: 0,
        doc: `Ignored outside ${familyText} and for request_type 1.`,
      },
      shading: { applies: pbrAndShading, ignored: 0, doc: `Ignored outside ${familyText}.` },
    },
    table: [
      "request_type",
      "model",
      "images",
      "multi_images",
      "multi_images_bit",
      "resolution",
      "mesh_url",
      "mesh",
      "pbr",
      "rmbg",
      "shading",
      "face",
      "format",
      "callback_url",
    ],
    inputs: {
      images: {
        kind: "file",
        doc: "One image: PNG, JPEG or WebP, at most 20 MB.",
        codes: [10031001, 10031005, 10031007, 10031008, 10031009, 10031010],
      },
      multi_images: {
        kind: "files",
        doc: "Or up to four views in the order front, back, left, right (or as multi_images_bit marks them).",
        codes: [10031001, 10031005, 10031009, 10031010],
      },
      multi_images_bit: {
        kind: "text",
        doc: "Four characters of 0 and 1 marking which of front, back, left, right were sent; the front is required.",
        codes: [10031013, 10031014, 10031015, 10031021],
      },
      mesh: { kind: "file", doc: "request_type 2: the GLB to texture, at most 200 MB.", codes: [10031001, 10031010, 10031011, 10031016] },
      mesh_url: { kind: "url", doc: "request_type 2: or the GLB's http(s) URL.", codes: [10031012, 10031016] },
      ...CALLBACK_INPUT,
    },
    cost: (table, v) => imageTo3dCost(table, v.model, v.resolution, v.request_type),
    scheme: "Bearer",
    query: { path: "/query-task", scheme: "Bearer" },
    order: [
      "request_type",
      "model",
      { input: "images" },
      "resolution",
      "face",
      "format",
      "pbr",
      "rmbg",
      "shading",
      {
        check: "model textures",
        field: "model",
        code: 10031017,
        ok: (v) => v.request_type !== 2 || info[v.model].texturesExistingMesh,
        detail: (v) => `${v.model} cannot texture an existing mesh (request_type 2)`,
      },
      { input: "mesh" },
      { input: "callback_url" },
    ],
  });
}

export const SUBMIT_TASK_SPEC = submitTaskSpec();
export type SubmitTaskSpec = typeof SUBMIT_TASK_SPEC;
