/**
 * One change in the spec, every consumer follows. The matrix here is the real one with two
 * one-line changes, as a developer would make them in lib/x3d/options: v2.0 offers 1024 (at
 * 10/20/20 credits), and the face limit moves from 5,000,000 to 6,000,000. Then the studio's
 * form logic, its FormData parser, the typed client's schema, the service's validator and the
 * cost all take the new values, and still refuse what stays refused.
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("../options", async (importOriginal) => {
  const real = await importOriginal<typeof import("../options")>();
  const v2 = real.MODEL_INFO["x3dv2.0"];
  // The one-line changes: an entry of v2.0's prices, and FACE_RANGE.max.
  const rows = { ...real.MODEL_INFO, "x3dv2.0": { ...v2, prices: { ...v2.prices, "1024": [10, 20, 20] as const } } };
  return { ...real, MODEL_INFO: real.modelInfo(rows), FACE_RANGE: { min: real.FACE_RANGE.min, max: 6_000_000 } };
});

const { imageOptionProblems, resolutionsFor, defaultsFor, faceProblem } = await import("../forms/image");
const { taskCost } = await import("../costs");
const { parseImageTaskForm } = await import("@/lib/tasks/create/parse-form");
const { SubmitTaskRequestSchema, SUBMIT_FIELD_CODES, issueCode } = await import("../schemas");
const { validateSubmitTask } = await import("@/lib/engine/validate/submit-task");
const { EngineError } = await import("@/lib/engine/engine-error");
const { ERRORS } = await import("../errors");
const { openApiDocument } = await import("./openapi");

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

/** The service's validator on a form of text fields and one PNG: the code it answers, or 200. */
function serviceCode(fields: Record<string, string>): number {
  const image = { field: "images", filename: "a.png", path: "/nonexistent/a.png", size: 100, head: PNG };
  try {
    validateSubmitTask({ fields: new Map(Object.entries(fields).map(([k, v]) => [k, [v]])), files: new Map([["images", [image]]]) });
    return 200;
  } catch (error) {
    if (error instanceof EngineError) return error.code;
    throw error;
  }
}

function clientCodes(input: object): number[] {
  const parsed = SubmitTaskRequestSchema.safeParse({ images: { name: "a.png", data: new Uint8Array(3) }, ...input });
  return parsed.success ? [] : parsed.error.issues.map((issue) => issueCode(issue, SUBMIT_FIELD_CODES));
}

function studioForm(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries({ mode: "single", images: "upload1", format: "2", ...fields })) form.append(k, v);
  return form;
}

describe("a resolution added to a model", () => {
  it("is offered by the form, accepted by the parser, the client and the service, and priced", () => {
    expect(resolutionsFor("x3dv2.0")).toEqual(["1024", "1536", "1536pro"]);
    expect(imageOptionProblems({ ...defaultsFor("x3dv2.0"), resolution: "1024", face: 1_000_000 })).toEqual({});
    const parsed = parseImageTaskForm(studioForm({ model: "x3dv2.0", resolution: "1024", face: "1000000" }));
    expect(parsed.ok && parsed.value.options.resolution).toBe("1024");
    expect(clientCodes({ model: "x3dv2.0", resolution: "1024" })).toEqual([]);
    expect(serviceCode({ model: "x3dv2.0", resolution: "1024" })).toBe(200);
    expect(taskCost({ kind: "image-to-3d", model: "x3dv2.0", resolution: "1024", request_type: 3 })).toBe(20);
    expect(taskCost({ kind: "image-to-3d", model: "x3dv2.0", resolution: "1024", request_type: 1 })).toBe(10);
    const doc = JSON.stringify(openApiDocument());
    expect(doc).toContain("x3dv2.0: 1024, 1536, 1536pro");
  });

  it("is still refused for the models that do not offer it", () => {
    expect(resolutionsFor("x3dv2.1")).not.toContain("1024");
    expect(clientCodes({ model: "x3dv2.1", resolution: "1024" })).toEqual([10031003]);
    expect(serviceCode({ model: "x3dv2.1", resolution: "1024" })).toBe(10031003);
    expect(parseImageTaskForm(studioForm({ model: "x3dv2.1", resolution: "1024", face: "1000000" }))).toEqual({
      ok: false,
      fields: { resolution: ERRORS[10031003].user },
    });
  });
});

describe("a face limit moved", () => {
  it("lets every consumer take the new maximum and refuse one above it, with the catalogue's sentence following", () => {
    for (const face of [5_500_000, 6_000_000]) {
      expect(faceProblem(face)).toBeUndefined();
      expect(parseImageTaskForm(studioForm({ model: "x3dv3.0", resolution: "2048quality", face: String(face) })).ok).toBe(true);
      expect(clientCodes({ face })).toEqual([]);
      expect(serviceCode({ face: String(face) })).toBe(200);
    }
    expect(faceProblem(6_000_001)).toBe(ERRORS[10031002].user);
    expect(clientCodes({ face: 6_000_001 })).toEqual([10031002]);
    expect(serviceCode({ face: "6000001" })).toBe(10031002);
    expect(ERRORS[10031002].user).toBe("The face count must be a whole number from 100,000 to 6,000,000.");
    expect(JSON.stringify(openApiDocument())).toContain('"maximum":6000000');
  });
});
