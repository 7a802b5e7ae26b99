/**
 * The OpenAPI 3.1 document of the x3d Open API, generated from the same specs that validate
 * requests (lib/x3d/endpoints) and the one error catalogue. Served by the embedded service at
 * /open-api/v1/openapi.json. Pure.
 */
import { DEFAULT_COSTS } from "../costs";
import { ERRORS, type ErrorCode } from "../errors";
import { TASK_STATES } from "../schemas/common";
import { DEPTH_SPEC } from "./depth";
import { checksOf, choices, fieldOrder, type EndpointSpec, type Field, type Fields, type InputDoc } from "./field";
import { SEGMENTATION_SPEC } from "./segmentation";
import { SPLIT_SPEC } from "./split";
import { SUBMIT_TASK_SPEC } from "./submit-task";

type Json = string | number | boolean | null | Json[] | { [key: string]: Json | undefined };
type JsonObject = { [key: string]: Json | undefined };

/**
 * The create endpoints, in the contract's order, seen through the general spec type (each
 * spec's rules take its own values, so the list is widened once here, for reading only).
 */
export const ENDPOINT_SPECS = [SUBMIT_TASK_SPEC, SPLIT_SPEC, DEPTH_SPEC, SEGMENTATION_SPEC] as unknown as readonly EndpointSpec<Fields>[];

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const security = (scheme: "Bearer" | "Token"): Json => (scheme === "Bearer" ? [{ bearer: [] }] : [{ token: [] }, { bearer: [] }]);

function fieldSchema(name: string, field: Field, spec: EndpointSpec<Fields>): JsonObject {
  const rule = spec.rules[name];
  const notes = [field.doc, rule?.doc].filter(Boolean).join(" ");
  const common: JsonObject = {
    description: notes,
    default: field.default,
    "x-x3d-code": field.code,
    "x-x3d-required-code": field.requiredCode,
  };
  switch (field.type) {
    case "choice":
      return { type: "string", enum: [...field.values], ...common };
    case "int-choice":
      return {
        type: "integer",
        enum: [...(choices(field) ?? [])],
        ...common,
        description: `${notes} ${Object.entries(field.values)
          .map(([k, label]) => `${k} ${label}`)
          .join(", ")}.`,
      };
    case "int":
      return { type: "integer", minimum: field.min, maximum: field.max, ...common };
    case "decimal":
      return {
        type: field.wireDecimals === undefined ? "number" : ["number", "string"],
        minimum: field.min,
        maximum: field.max,
        multipleOf: field.step,
        ...common,
      };
  }
}

function inputSchema(input: InputDoc): JsonObject {
  const codes = { "x-x3d-codes": [...input.codes] };
  switch (input.kind) {
    case "file":
      return { type: "string", format: "binary", contentMediaType: "application/octet-stream", description: input.doc, ...codes };
    case "files":
      return { type: "array", items: { type: "string", format: "binary" }, maxItems: 4, description: input.doc, ...codes };
    case "url":
      return { type: "string", format: "uri", description: input.doc, ...codes };
    case "text":
      return { type: "string", description: input.doc, ...codes };
  }
}

/** Every code a create request of this endpoint can answer with, from its fields, rules, checks and inputs. */
export function endpointCodes(spec: EndpointSpec<Fields>): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  for (const name of fieldOrder(spec)) {
    const field = spec.fields[name];
    if (!field) continue;
    codes.add(field.code);
    if (field.requiredCode) codes.add(field.requiredCode);
    const allowedCode = spec.rules[name]?.allowedCode;
    if (allowedCode) codes.add(allowedCode);
  }
  for (const check of checksOf(spec)) codes.add(check.code);
  for (const input of Object.values(spec.inputs)) for (const code of input.codes) codes.add(code);
  return [...codes].sort((a, b) => a - b);
}

function errorsText(codes: readonly number[]): string {
  return codes.map((c) => `${c} ${(ERRORS as Record<number, { msg: string }>)[c]?.msg ?? ""}`).join("; ");
}

function createOperation(spec: EndpointSpec<Fields>): JsonObject {
  const properties: JsonObject = {};
  for (const name of spec.table) {
    const field = spec.fields[name];
    const input = spec.inputs[name];
    if (field) properties[name] = fieldSchema(name, field, spec);
    else if (input) properties[name] = inputSchema(input);
  }
  const required = fieldOrder(spec).filter((name) => spec.fields[name]?.default === undefined && !spec.rules[name]?.default);
  const codes = endpointCodes(spec);
  return {
    post: {
      operationId: `create${spec.path.replace(/[^a-z]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
      summary: spec.summary,
      description: `Checked in this order: ${spec.order
        .map((step) => (typeof step === "string" ? step : "input" in step ? step.input : step.check))
        .join(", ")}; the first problem answers. Error codes: ${errorsText(codes)}.`,
      security: security(spec.scheme),
      "x-x3d-error-codes": codes,
      requestBody: {
        required: true,
        content: { "multipart/form-data": { schema: { type: "object", properties, required: required.length ? required : undefined } } },
      },
      responses: {
        "200": {
          description: "The task was created (code 200), or a business error (another code, HTTP 200 on the live service).",
          content: { "application/json": { schema: { oneOf: [ref("CreateAnswer"), ref("ErrorAnswer")] } } },
        },
        default: { description: "An error answer.", content: { "application/json": { schema: ref("ErrorAnswer") } } },
      },
    },
  };
}

function queryOperation(path: string, scheme: "Bearer" | "Token"): JsonObject {
  return {
    get: {
      operationId: `query${path.replace(/[^a-z]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
      summary: "State and result links of a task.",
      security: security(scheme),
      parameters: [{ name: "task_id", in: "query", required: true, schema: { type: "string", minLength: 1 } }],
      "x-x3d-error-codes": [10030009, 10030010],
      responses: {
        "200": {
          description: "The task, or a business error.",
          content: { "application/json": { schema: { oneOf: [ref("TaskAnswer"), ref("ErrorAnswer")] } } },
        },
        default: { description: "An error answer.", content: { "application/json": { schema: ref("ErrorAnswer") } } },
      },
    },
  };
}

const envelope = (data: JsonObject): JsonObject => ({
  type: "object",
  required: ["code", "msg", "data"],
  properties: { code: { type: "integer", const: 200 }, msg: { type: "string" }, data },
});

/** The document. `serverUrl` is where /open-api/v1 is served (relative by default). */
export function openApiDocument(serverUrl = "/open-api/v1"): JsonObject {
  const paths: JsonObject = {
    "/auth/token": {
      post: {
        operationId: "token",
        summary: "A Bearer token for the client credentials (HTTP Basic); valid for 24 hours.",
        security: [{ basic: [] }],
        "x-x3d-error-codes": [40010000],
        responses: {
          "200": {
            description: "The token, or a business error.",
            content: { "application/json": { schema: { oneOf: [ref("TokenAnswer"), ref("ErrorAnswer")] } } },
          },
        },
      },
    },
    "/balance": {
      get: {
        operationId: "balance",
        summary: "The account's credits.",
        security: security("Bearer"),
        responses: { "200": { description: "The balance.", content: { "application/json": { schema: ref("BalanceAnswer") } } } },
      },
    },
  };
  for (const spec of ENDPOINT_SPECS) {
    paths[spec.path] = createOperation(spec);
    paths[spec.query.path] = queryOperation(spec.query.path, spec.query.scheme);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "x3d Open API (embedded service)",
      version: "1",
      description:
        "3D generation: image to 3D, texturing, splitting, depth maps and reliefs, segmentation. Every answer is the envelope " +
        "{code, msg, data}; code 200 is success, any other code an error from the catalogue (x-x3d-errors). " +
        `Prices in credits: split ${DEFAULT_COSTS.split}, depth ${DEFAULT_COSTS.depth}, segmentation ${DEFAULT_COSTS.segmentation}; ` +
        "image to 3D per model, resolution and request type (x-x3d-prices).",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        basic: { type: "http", scheme: "basic" },
        bearer: { type: "http", scheme: "bearer" },
        token: { type: "apiKey", in: "header", name: "Authorization", description: "`Token <access token>`" },
      },
      schemas: {
        ErrorAnswer: {
          type: "object",
          required: ["code"],
          properties: { code: { type: "integer" }, msg: { type: "string" }, data: { type: "object" } },
        },
        CreateAnswer: envelope({
          type: "object",
          required: ["task_id"],
          properties: { task_id: { type: "string" }, state: { type: "string", enum: [...TASK_STATES] } },
        }),
        TaskAnswer: envelope({
          type: "object",
          required: ["task_id", "state"],
          properties: {
            task_id: { type: "string" },
            state: { type: "string", enum: [...TASK_STATES] },
            id: { type: "string" },
            cover_url: { type: "string" },
            url: { type: "string" },
          },
        }),
        TokenAnswer: envelope({
          type: "object",
          required: ["accessToken", "tokenType", "nonce"],
          properties: { accessToken: { type: "string" }, tokenType: { type: "string" }, nonce: { type: "string" } },
        }),
        BalanceAnswer: envelope({ type: "object", required: ["totalBalance"], properties: { totalBalance: { type: "number" } } }),
      },
    },
    "x-x3d-prices": Object.fromEntries(Object.entries(DEFAULT_COSTS.imageTo3d).map(([key, triple]) => [key, [...triple]])),
    "x-x3d-errors": Object.fromEntries(Object.entries(ERRORS).map(([code, e]) => [code, { msg: e.msg, http: e.http }])),
  };
}
