/**
 * What the OpenAPI document says about each endpoint, field and input, read from the specs:
 * the operation's name, security, the order of its checks, the required fields, each field's
 * type, range, step, default and codes, each input's kind, and the envelope schemas.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { DEFAULT_COSTS } from "../costs";
import { ERRORS } from "../errors";
import { endpointCodes, ENDPOINT_SPECS, openApiDocument } from "./openapi";

type Obj = Record<string, unknown>;
// Built in each test (not once at load), so that each test is counted as covering the code it runs.
const doc = () => openApiDocument("https://x3d.example/open-api/v1") as Obj;
const pathsOf = () => doc().paths as Record<string, Record<string, Obj>>;
const post = (path: string) => pathsOf()[path]?.post as Obj;
const get = (path: string) => pathsOf()[path]?.get as Obj;
const body = (path: string) =>
  (
    post(path).requestBody as {
      content: Record<string, { schema: { type: string; properties: Record<string, Obj>; required?: string[] } }>;
    }
  ).content["multipart/form-data"]?.schema;
const prop = (path: string, name: string) => body(path)?.properties[name];

describe("the operations", () => {
  it("are named after their paths", () => {
    expect(ENDPOINT_SPECS.map((s) => post(s.path).operationId)).toEqual([
      "createSubmitTask",
      "createSplitCreateTask",
      "createDepthCreateTask",
      "createSegmentationCreateTask",
    ]);
    expect(ENDPOINT_SPECS.map((s) => get(s.query.path).operationId)).toEqual([
      "queryQueryTask",
      "querySplitQueryTask",
      "queryDepthQueryTask",
      "querySegmentationQueryTask",
    ]);
  });

  it("take Bearer, or Token and Bearer where the contract uses the Token scheme", () => {
    expect(post("/submit-task").security).toEqual([{ bearer: [] }]);
    expect(post("/segmentation/create-task").security).toEqual([{ token: [] }, { bearer: [] }]);
    expect(get("/split/query-task").security).toEqual([{ token: [] }, { bearer: [] }]);
    expect(get("/depth/query-task").security).toEqual([{ bearer: [] }]);
    expect(pathsOf()["/balance"]?.get?.security).toEqual([{ bearer: [] }]);
    expect(pathsOf()["/auth/token"]?.post?.security).toEqual([{ basic: [] }]);
  });

  it("describe the order of the checks and every code with its msg", () => {
    const description = post("/split/create-task").description as string;
    expect(description).toMatch(
      /^Checked in this order: mesh, model, part, joint, merge, level, format, callback_url; the first problem answers\./,
    );
    const submit = post("/submit-task").description as string;
    expect(submit).toContain("shading, model textures, mesh, callback_url;");
    const codes = endpointCodes(ENDPOINT_SPECS[1] as never);
    expect(description).toContain(
      `Error codes: ${codes.map((c) => `${c} ${(ERRORS as Record<number, { msg: string }>)[c]?.msg}`).join("; ")}.`,
    );
    expect(description).toContain("10032003 joint not valid; 10032004 merge not valid");
  });

  it("list each endpoint's codes in order, with required codes, allowed codes and the checks' codes", () => {
    expect(post("/depth/create-task")["x-x3d-error-codes"]).toEqual([
      10030001, 10030002, 10030012, 10033001, 10033002, 10033003, 10033004, 10033005, 10033006, 10033007, 10033008, 10033009, 10033010,
      10033011, 10033012, 10033013, 10033014, 10033015, 10033016,
    ]);
    expect(post("/submit-task")["x-x3d-error-codes"]).toContain(10031017);
    expect(post("/segmentation/create-task")["x-x3d-error-codes"]).toEqual([
      10030001, 10030002, 10030003, 10030004, 10030005, 10030006, 10030007, 10030008, 10030012, 10034001,
    ]);
    const withAllowedCode = { ...ENDPOINT_SPECS[0], rules: { ...ENDPOINT_SPECS[0]?.rules, face: { allowedCode: 30010000 } } };
    expect(endpointCodes(withAllowedCode as never)).toContain(30010000);
    expect(get("/query-task")["x-x3d-error-codes"]).toEqual([10030009, 10030010]);
    expect(get("/query-task").parameters).toEqual([
      { name: "task_id", in: "query", required: true, schema: { type: "string", minLength: 1 } },
    ]);
  });

  it("take a multipart body", () => {
    for (const spec of ENDPOINT_SPECS) {
      expect(post(spec.path).requestBody, spec.path).toMatchObject({ required: true });
      expect(body(spec.path)?.type, spec.path).toBe("object");
    }
  });

  it("include the token and the balance", () => {
    const token = pathsOf()["/auth/token"]?.post as Obj;
    expect(token).toMatchObject({ operationId: "token", "x-x3d-error-codes": [40010000] });
    expect((token.responses as Record<string, { content: Record<string, unknown> }>)["200"]?.content["application/json"]).toEqual({
      schema: { oneOf: [{ $ref: "#/components/schemas/TokenAnswer" }, { $ref: "#/components/schemas/ErrorAnswer" }] },
    });
    const balance = pathsOf()["/balance"]?.get as Obj;
    expect(balance.operationId).toBe("balance");
    expect((balance.responses as Record<string, { content: Record<string, unknown> }>)["200"]?.content["application/json"]).toEqual({
      schema: { $ref: "#/components/schemas/BalanceAnswer" },
    });
  });

  it("require the fields without a default, and no others", () => {
    expect(body("/depth/create-task")?.required).toEqual(["format"]);
    // submit-task's resolution and face have defaults by rule.
    expect(body("/submit-task")?.required).toBeUndefined();
    expect(body("/split/create-task")?.required).toBeUndefined();
  });

  it("answer with the envelope, or an error answer", () => {
    const ok = post("/submit-task").responses as Record<string, { content: Record<string, { schema: unknown }> }>;
    expect(ok["200"]?.content["application/json"]?.schema).toEqual({
      oneOf: [{ $ref: "#/components/schemas/CreateAnswer" }, { $ref: "#/components/schemas/ErrorAnswer" }],
    });
    expect(ok.default?.content["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/ErrorAnswer" });
    const query = get("/query-task").responses as typeof ok;
    expect(query.default?.content["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/ErrorAnswer" });
    expect(query["200"]?.content["application/json"]?.schema).toEqual({
      oneOf: [{ $ref: "#/components/schemas/TaskAnswer" }, { $ref: "#/components/schemas/ErrorAnswer" }],
    });
  });
});

describe("the fields", () => {
  it("document a choice with its values, default, doc, rule and code", () => {
    expect(prop("/split/create-task", "merge")).toEqual({
      type: "string",
      enum: ["yes", "no"],
      description: "Merge the joints into the parts. Only for model character with a joint.",
      default: "yes",
      "x-x3d-code": 10032004,
    });
  });

  it("document an int choice with its values and their labels", () => {
    expect(prop("/depth/create-task", "format")).toEqual({
      type: "integer",
      enum: [1, 2, 3, 4, 5, 6],
      description: "Output format; 6 is bmp here (3mf in image-to-3D). 1 exr, 2 png, 3 stl, 4 glb, 5 3mf, 6 bmp.",
      "x-x3d-code": 10030002,
      "x-x3d-required-code": 10033015,
    });
  });

  it("document an int with its range, the default rule in words", () => {
    expect(prop("/submit-task", "face")).toEqual({
      type: "integer",
      minimum: 100_000,
      maximum: 5_000_000,
      description:
        "Target triangle count; the default is the resolution's recommended count. 512: 500000; 1024: 1000000; 1536: 2000000; " +
        "1536fast: 2000000; 1536pro: 2000000; 1536profast: 2000000; 2048quality: 2000000; 2048master: 5000000",
      "x-x3d-code": 10031002,
    });
  });

  it("document a decimal with its range and step, as a number or a string when it goes with fixed decimals", () => {
    expect(prop("/submit-task", "shading")).toMatchObject({ type: "number", minimum: 0, maximum: 1, multipleOf: 0.1, default: 0.5 });
    expect(prop("/depth/create-task", "thickness_base")).toMatchObject({
      type: ["number", "string"],
      minimum: 0.1,
      maximum: 20,
      multipleOf: 0.1,
    });
    expect(prop("/depth/create-task", "height_relief")).toEqual({
      type: "number",
      minimum: 0.1,
      maximum: 50,
      description: "Relief height.",
      default: 1.3,
      "x-x3d-code": 10033007,
    });
  });

  it("say which models offer which resolutions", () => {
    expect(prop("/submit-task", "resolution")?.description).toContain("x3dv2.1: 1536fast, 1536pro (default 1536pro); x3dv3.0: 2048quality");
    expect(prop("/submit-task", "pbr")?.description).toBe(
      "Physically based materials (v2.0, v2.1 and v3.0 families, when a texture is made). " +
        "Ignored outside x3dv2.0, x3dv2.1, x3dv3.0, scene-portraitv2.0, scene-portraitv2.1 and for request_type 1. 0 off, 1 on.",
    );
  });
});

describe("the inputs", () => {
  it("document files, views, URLs and text with the codes their checks answer", () => {
    expect(prop("/submit-task", "images")).toEqual({
      type: "string",
      format: "binary",
      contentMediaType: "application/octet-stream",
      description: "One image: PNG, JPEG or WebP, at most 20 MB.",
      "x-x3d-codes": [10031001, 10031005, 10031007, 10031008, 10031009, 10031010],
    });
    expect(prop("/submit-task", "multi_images")).toMatchObject({ type: "array", items: { type: "string", format: "binary" }, maxItems: 4 });
    expect(prop("/submit-task", "multi_images_bit")).toEqual({
      type: "string",
      description: "Four characters of 0 and 1 marking which of front, back, left, right were sent; the front is required.",
      "x-x3d-codes": [10031013, 10031014, 10031015, 10031021],
    });
    expect(prop("/split/create-task", "mesh_url")).toEqual({
      type: "string",
      format: "uri",
      description: "Or the mesh's http(s) URL (.glb, .stl or .obj).",
      "x-x3d-codes": [10030005, 10030007],
    });
  });
});

/** Every place under `value` where a key named `key` holds something other than a non-empty string. */
function blank(value: unknown, key: string, at = "#"): string[] {
  if (typeof value !== "object" || value === null) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (k === key && (typeof v !== "string" || v.trim() === "")) out.push(`${at}/${k}`);
    out.push(...blank(v, key, `${at}/${k}`));
  }
  return out;
}

describe("the document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc())));
    expect(result.errors ?? []).toEqual([]);
  });

  it("summarises every operation and describes every response, parameter and field", () => {
    const document = doc();
    const operations = Object.values(document.paths as Record<string, Record<string, Obj>>).flatMap((p) => Object.values(p));
    expect(operations).toHaveLength(2 + 2 * ENDPOINT_SPECS.length);
    for (const operation of operations) {
      expect(operation.summary, String(operation.operationId)).toMatch(/\S/);
      expect(Object.keys(operation.responses as Obj).length, String(operation.operationId)).toBeGreaterThan(0);
    }
    expect(blank(document.paths, "description")).toEqual([]);
    expect(blank(document.paths, "operationId")).toEqual([]);
    for (const spec of ENDPOINT_SPECS) {
      const properties = body(spec.path)?.properties ?? {};
      for (const [name, property] of Object.entries(properties)) expect(property.description, `${spec.path} ${name}`).toMatch(/\S/);
    }
    expect(document.info).toMatchObject({ title: "x3d Open API (embedded service)", version: "1" });
  });

  it("is served where it is told, and states the prices", () => {
    expect(doc().openapi).toBe("3.1.0");
    expect(doc().servers).toEqual([{ url: "https://x3d.example/open-api/v1" }]);
    expect(openApiDocument().servers).toEqual([{ url: "/open-api/v1" }]);
    const description = (doc().info as Obj).description as string;
    expect(description).toMatch(/^3D generation: image to 3D, texturing, splitting, depth maps and reliefs, segmentation\. /);
    expect(description).toContain("{code, msg, data}; code 200 is success, any other code an error from the catalogue (x-x3d-errors). ");
    expect(description).toContain("Prices in credits: split 20, depth 20, segmentation 20; ");
    expect(description).toMatch(/image to 3D per model, resolution and request type \(x-x3d-prices\)\.$/);
    expect(doc()["x-x3d-prices"]).toEqual(DEFAULT_COSTS.imageTo3d);
  });

  it("carries the whole catalogue with msg and HTTP status", () => {
    const errors = doc()["x-x3d-errors"] as Record<string, { msg: string; http: number }>;
    expect(Object.keys(errors)).toEqual(Object.keys(ERRORS));
    expect(errors["10030013"]).toEqual({ msg: "request body timed out", http: 408 });
  });

  it("describes the answers' envelopes", () => {
    const schemas = (doc().components as Obj).schemas as Record<string, Obj>;
    expect(schemas.ErrorAnswer).toEqual({
      type: "object",
      required: ["code"],
      properties: { code: { type: "integer" }, msg: { type: "string" }, data: { type: "object" } },
    });
    expect(schemas.BalanceAnswer).toEqual({
      type: "object",
      required: ["code", "msg", "data"],
      properties: {
        code: { type: "integer", const: 200 },
        msg: { type: "string" },
        data: { type: "object", required: ["totalBalance"], properties: { totalBalance: { type: "number" } } },
      },
    });
    const states = { type: "string", enum: ["created", "queueing", "processing", "success", "failed"] };
    expect((schemas.TaskAnswer?.properties as Obj).data).toEqual({
      type: "object",
      required: ["task_id", "state"],
      properties: {
        task_id: { type: "string" },
        state: states,
        id: { type: "string" },
        cover_url: { type: "string" },
        url: { type: "string" },
      },
    });
    expect((schemas.TokenAnswer?.properties as Obj).data).toEqual({
      type: "object",
      required: ["accessToken", "tokenType", "nonce"],
      properties: { accessToken: { type: "string" }, tokenType: { type: "string" }, nonce: { type: "string" } },
    });
    expect((schemas.CreateAnswer?.properties as Obj).data).toEqual({
      type: "object",
      required: ["task_id"],
      properties: { task_id: { type: "string" }, state: states },
    });
    expect((doc().components as Obj).securitySchemes).toEqual({
      basic: { type: "http", scheme: "basic" },
      bearer: { type: "http", scheme: "bearer" },
      token: { type: "apiKey", in: "header", name: "Authorization", description: "`Token <access token>`" },
    });
  });
});
