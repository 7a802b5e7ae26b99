/**
 * Each option field's values, range, step and default as the contract states them
 * (docs/contract/open-api.md 4.2 and 4.7, the README for split and segmentation), written out
 * here, and each consumer of the spec held to them: the service's reading, the typed
 * client's request schema and the studio's form. A value moved in the spec fails here.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  DEPTH_FIELD_CODES,
  DepthCreateRequestSchema,
  issueCode,
  SEGMENTATION_FIELD_CODES,
  SegmentationCreateRequestSchema,
  SPLIT_FIELD_CODES,
  SplitCreateRequestSchema,
  SUBMIT_FIELD_CODES,
  SubmitTaskRequestSchema,
  type FieldCodes,
} from "../schemas";
import { DEPTH_SPEC } from "./depth";
import type { EndpointSpec, Fields } from "./field";
import { formStart, readForm } from "../forms/endpoint-form";
import { readForService, type Problem } from "./read";
import { SEGMENTATION_SPEC } from "./segmentation";
import { SPLIT_SPEC } from "./split";
import { SUBMIT_TASK_SPEC } from "./submit-task";

interface Endpoint {
  spec: EndpointSpec<Fields>;
  /** What a request needs besides options, for the client's schema, and the fields that make every option apply. */
  inputs: object;
  base: Record<string, string>;
  schema: z.ZodType;
  codes: FieldCodes;
}

const ENDPOINTS: Record<string, Endpoint> = {
  submit: {
    spec: SUBMIT_TASK_SPEC as unknown as EndpointSpec<Fields>,
    // The mesh is dropped unless request_type is 2, which needs it.
    inputs: { images: { name: "a.png", data: new Uint8Array(3) }, mesh_url: "https://cdn.example/m.glb" },
    base: {},
    schema: SubmitTaskRequestSchema,
    codes: SUBMIT_FIELD_CODES,
  },
  split: {
    spec: SPLIT_SPEC as unknown as EndpointSpec<Fields>,
    inputs: { mesh_url: "https://cdn.example/m.glb" },
    base: {},
    schema: SplitCreateRequestSchema,
    codes: SPLIT_FIELD_CODES,
  },
  depth: {
    spec: DEPTH_SPEC as unknown as EndpointSpec<Fields>,
    inputs: { image_url: "https://cdn.example/a.png" },
    base: { format: "1" },
    schema: DepthCreateRequestSchema,
    codes: DEPTH_FIELD_CODES,
  },
  segmentation: {
    spec: SEGMENTATION_SPEC as unknown as EndpointSpec<Fields>,
    inputs: { mesh_url: "https://cdn.example/m.glb" },
    base: {},
    schema: SegmentationCreateRequestSchema,
    codes: SEGMENTATION_FIELD_CODES,
  },
};

type Row = [
  endpoint: string,
  field: string,
  code: number,
  taken: (string | number)[],
  refused: (string | number)[],
  fallback?: string | number,
];

const MODELS = ["x3dv1.5", "x3dv2.0", "x3dv2.1", "x3dv3.0", "scene-portraitv1.5", "scene-portraitv2.0", "scene-portraitv2.1"];

/** Values the contract allows (each accepted) and ones next to them (each refused), with the default. */
const ROWS: Row[] = [
  ["submit", "request_type", 10031004, [1, 2, 3], [0, 4], 3],
  ["submit", "model", 10031006, MODELS, ["x3dv4.0", "X3DV3.0"], "x3dv3.0"],
  ["submit", "face", 10031002, [100_000, 5_000_000, 2_000_000], [99_999, 5_000_001], 2_000_000],
  ["submit", "format", 10030002, [1, 2, 3, 4, 5, 6], [0, 7], 1],
  ["submit", "pbr", 10031018, [0, 1], [2, -1], 1],
  ["submit", "rmbg", 10031019, [0, 1], [2, -1], 1],
  ["submit", "shading", 10031020, [0, 0.1, 0.5, 1], [-0.1, 1.1, 0.55], 0.5],
  ["split", "model", 10032001, ["character", "general"], ["human"], "character"],
  ["split", "part", 10032002, ["a", "b", "c", "d", "e", "f"], ["g", "A"], "a"],
  ["split", "joint", 10032003, ["none", "ball", "dovetail", "pin"], ["hinge"], "ball"],
  ["split", "merge", 10032004, ["yes", "no"], ["true"], "yes"],
  ["split", "format", 10030002, [1, 2, 3, 4, 5, 6], [0, 7], 1],
  ["depth", "model_type", 10033006, ["base", "pro"], ["ultra"], "pro"],
  ["depth", "height_relief", 10033007, [0.1, 50, 1.37], [0.09, 50.01], 1.3],
  ["depth", "rmbg", 10033008, [0, 1], [2], 1],
  ["depth", "degree_rmbg", 10033009, [0, 0.01, 1], [-0.01, 1.01, 0.015], 0.02],
  ["depth", "width", 10033012, [20, 600], [19, 601, 40.5], 40],
  ["depth", "sculpmode", 10033013, [0, 1], [2], 0],
  ["depth", "response_format", 10033014, ["url"], ["b64_json"], "url"],
  ["depth", "format", 10030002, [1, 2, 3, 4, 5, 6], [0, 7]],
  ["segmentation", "seg_level", 10034001, ["low", "medium", "high"], ["max"], "medium"],
  ["segmentation", "format", 10030002, [1, 2, 3, 4, 5], [0, 6], 1],
];
/** Fields that apply only with another field's value: set it for the row. */
const CONTEXT: Record<string, Record<string, string>> = {
  "split level": { model: "general" },
  "depth shape_base": { rmbg: "0" },
  "depth thickness_base": { rmbg: "0" },
};
ROWS.push(
  ["split", "level", 10032005, ["low", "medium", "high"], ["extreme"], "medium"],
  ["depth", "shape_base", 10033010, [0, 1], [2], 0],
  ["depth", "thickness_base", 10033011, [0.1, 20, 1.5], [0.09, 20.1, 0.15], 1],
);

/** The service's reading of text fields: its values, or its first problem. */
function service(e: Endpoint, fields: Record<string, string>): { values?: Record<string, unknown>; problem?: Problem } {
  try {
    const values = readForService(
      e.spec,
      (name) => fields[name],
      (problem) => {
        throw problem;
      },
    );
    return { values };
  } catch (problem) {
    return { problem: problem as Problem };
  }
}

/** The typed client's codes for an option value ([] when accepted; a code once however many issues carry it). */
function client(e: Endpoint, options: Record<string, unknown>): number[] {
  const parsed = e.schema.safeParse({ ...e.inputs, ...options });
  return parsed.success ? [] : [...new Set(parsed.error.issues.map((issue) => issueCode(issue, e.codes)))];
}

/** The studio's form submitted with its starting values and `fields`: the field's value, or the problems (field and code). */
function form(e: Endpoint, context: Record<string, string>, field: string, value: string, taken: boolean) {
  // A value taken may move the later starts (a model's resolution); one refused cannot be asked.
  const start = formStart(e.spec, numeric(taken ? { ...context, [field]: value } : context) as never) as Record<string, unknown>;
  const text: Record<string, string> = { ...Object.fromEntries(Object.entries(start).map(([k, v]) => [k, String(v)])), ...context };
  text[field] = value;
  const read = readForm(e.spec, (name) => text[name]);
  return read.ok
    ? { ok: true, field: (read.values as Record<string, unknown>)[field] }
    : { ok: false, problems: read.problems.map((p) => ({ field: p.field, code: p.code })) };
}

const numeric = (fields: Record<string, string>) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, /^\d+$/.test(v) ? Number(v) : v]));

describe.each(ROWS)("%s %s", (name, field, code, taken, refused, fallback) => {
  const e = ENDPOINTS[name] as Endpoint;
  const context = { ...e.base, ...CONTEXT[`${name} ${field}`] };
  const omitted = field === "response_format";

  it(`defaults to ${String(fallback ?? "nothing: it is required")}`, () => {
    const read = service(e, { ...context, [field]: undefined } as Record<string, string>);
    if (fallback === undefined) expect(read.problem).toMatchObject({ field, code: 10033015 });
    else expect(read.values?.[field]).toBe(fallback);
  });

  it(`takes ${taken.join(", ")} in the service, the client and the form`, () => {
    for (const value of taken) {
      expect(service(e, { ...context, [field]: String(value) }).values?.[field], String(value)).toBe(value);
      expect(client(e, { ...numeric(context), [field]: value }), String(value)).toEqual([]);
      if (!omitted) expect(form(e, context, field, String(value), true), String(value)).toEqual({ ok: true, field: value });
    }
  });

  it(`refuses ${refused.join(", ")} with ${code} in the service, the client and the form`, () => {
    for (const value of refused) {
      expect(service(e, { ...context, [field]: String(value) }).problem, String(value)).toMatchObject({ field, code });
      expect(client(e, { ...numeric(context), [field]: value }), String(value)).toEqual([code]);
      if (!omitted)
        expect(form(e, context, field, String(value), false), String(value)).toEqual({ ok: false, problems: [{ field, code }] });
    }
  });
});
