import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { isKnownCode } from "../errors";
import { choices, fieldOrder } from "./field";
import { ENDPOINT_SPECS, endpointCodes, openApiDocument } from "./openapi";

type Operation = {
  "x-x3d-error-codes"?: number[];
  requestBody?: { content: { "multipart/form-data": { schema: { properties: Record<string, Record<string, unknown>> } } } };
};
const doc = openApiDocument();
const paths = doc.paths as Record<string, Record<string, Operation>>;

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("documents every route the embedded service serves under /open-api/v1", () => {
    const root = path.join(process.cwd(), "app/open-api/v1");
    const routes: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(path.join(dir, entry.name));
        else if (entry.name === "route.ts") routes.push("/" + path.relative(root, dir).split(path.sep).join("/"));
      }
    };
    walk(root);
    // The file links are signed URLs handed out in answers, and the document describes itself.
    const served = routes.filter((r) => !r.startsWith("/files/") && r !== "/openapi.json").sort();
    expect(Object.keys(paths).sort()).toEqual(served);
  });

  it("lists every field of each spec with its values, range and code, and every code is in the catalogue", () => {
    for (const spec of ENDPOINT_SPECS) {
      const operation = paths[spec.path]?.post;
      const properties = operation?.requestBody?.content["multipart/form-data"].schema.properties ?? {};
      expect(Object.keys(properties), spec.path).toEqual([...spec.table]);
      for (const name of fieldOrder(spec)) {
        const field = spec.fields[name];
        const property = properties[name];
        if (!field) throw new Error(`${spec.path}: no field ${name}`);
        expect(property?.["x-x3d-code"], `${spec.path} ${name}`).toBe(field.code);
        const values = choices(field);
        if (values) expect(property?.enum, `${spec.path} ${name}`).toEqual([...values]);
        if (field.type === "int" || field.type === "decimal")
          expect([property?.minimum, property?.maximum]).toEqual([field.min, field.max]);
      }
      const codes = operation?.["x-x3d-error-codes"] ?? [];
      expect(codes).toEqual(endpointCodes(spec));
      for (const code of codes) expect(isKnownCode(code), `${spec.path} ${code}`).toBe(true);
    }
  });
});
