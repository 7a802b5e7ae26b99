/**
 * The error catalogue against what it promises: the contract's codes keep their exact `msg`
 * (docs/contract/open-api.md section 7), our own codes keep the `msg` the README lists, the
 * sentences that name a range or the models follow lib/x3d/options, and every field a code
 * concerns is one a request has.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ERRORS, errorField, isKnownCode, userMessage } from "./errors";
import { DEPTH_RANGES, FACE_RANGE, MODEL_INFO, MODELS, SHADING_RANGE } from "./options";
import { ENDPOINT_SPECS } from "./endpoints/openapi";

/** `| code | msg | ...` rows of a markdown table, after the line that starts the section. */
function tableRows(file: string, after: string): Map<number, string> {
  const text = fs.readFileSync(path.join(process.cwd(), file), "utf8");
  const start = text.indexOf(after);
  if (start < 0) throw new Error(`${file}: no "${after}"`);
  const rows = new Map<number, string>();
  for (const line of text.slice(start).split("\n").slice(1)) {
    if (line.startsWith("#")) break;
    const match = /^\|\s*`?(\d+)`?\s*\|\s*([^|]+?)\s*\|/.exec(line);
    if (match?.[1] && match[2]) rows.set(Number(match[1]), match[2]);
  }
  return rows;
}

const catalogue = ERRORS as Record<number, { msg: string; http: number; user: string; field?: string }>;

describe("the error catalogue", () => {
  it("keeps the exact msg of every code of the contract (open-api.md section 7)", () => {
    const contract = tableRows("docs/contract/open-api.md", "## 7. Errors");
    expect(contract.size).toBe(24);
    for (const [code, msg] of contract) expect(catalogue[code]?.msg, String(code)).toBe(msg);
  });

  it("keeps the msg the README lists for each of our own codes, and lists them all", () => {
    const ours = tableRows("docs/contract.md", "| 10030001 |");
    // The table starts at its first row here; add that row back.
    ours.set(10030001, "callback_url not valid");
    for (const [code, listed] of ours) expect(catalogue[code]?.msg, String(code)).toBe(listed.replace(/ \(.*\)$/, ""));
    const contract = tableRows("docs/contract/open-api.md", "## 7. Errors");
    const unlisted = Object.keys(ERRORS)
      .map(Number)
      .filter((code) => !contract.has(code) && !ours.has(code));
    expect(unlisted).toEqual([]);
  });

  it("answers HTTP 200 for business errors and a real status where the HTTP layer failed", () => {
    const notOk = Object.entries(catalogue)
      .filter(([, e]) => e.http !== 200)
      .map(([code, e]) => [Number(code), e.http]);
    expect(notOk).toEqual([
      [401, 401],
      [10000000, 500],
      [10030013, 408],
      [10030014, 405],
    ]);
  });

  it("has a sentence for people for every code: capitalised, ending in a full stop, not the wire msg", () => {
    for (const [code, e] of Object.entries(catalogue)) {
      expect(e.user, code).toMatch(/^[A-Z].*\.$/);
      expect(e.user, code).not.toBe(e.msg);
    }
  });

  it("names only fields and inputs a request has", () => {
    const known = new Set(["task_id"]);
    for (const spec of ENDPOINT_SPECS) for (const name of spec.table) known.add(name);
    for (const [code, e] of Object.entries(catalogue))
      if (e.field !== undefined) expect(known.has(e.field), `${code} ${e.field}`).toBe(true);
  });

  it("words ranges from the option matrix", () => {
    const { height_relief, degree_rmbg, thickness_base, width } = DEPTH_RANGES;
    expect(ERRORS[10031002].user).toBe(
      `The face count must be a whole number from ${FACE_RANGE.min.toLocaleString("en-US")} to ${FACE_RANGE.max.toLocaleString("en-US")}.`,
    );
    expect(ERRORS[10031002].user).toBe("The face count must be a whole number from 100,000 to 5,000,000.");
    expect(ERRORS[10031020].user).toBe(`De-shading must be between 0.0 and 1.0 in steps of ${SHADING_RANGE.step}.`);
    expect(ERRORS[10033007].user).toBe(`Relief height must be from 0.1 to ${height_relief.max.toFixed(1)}.`);
    expect(ERRORS[10033009].user).toBe(`Background removal strength must be from 0.00 to 1.00 in steps of ${degree_rmbg.step}.`);
    expect(ERRORS[10033011].user).toBe(`Base thickness must be from 0.1 to 20.0 mm in steps of ${thickness_base.step}.`);
    expect(ERRORS[10033012].user).toBe(`Width must be a whole number of millimetres from ${width.min} to ${width.max}.`);
  });

  it("names the models that can texture an existing mesh, from the matrix, as a list ending in 'or'", () => {
    const labels = MODELS.filter((m) => MODEL_INFO[m].texturesExistingMesh).map((m) => MODEL_INFO[m].label);
    expect(labels).toEqual(["v1.5", "v3.0", "Scene portrait v1.5"]);
    expect(ERRORS[10031017].user).toBe("This model cannot texture an existing mesh: choose v1.5, v3.0 or Scene portrait v1.5.");
  });
});

describe("reading the catalogue", () => {
  it("knows its own codes only", () => {
    expect(isKnownCode(10031002)).toBe(true);
    expect(isKnownCode(200)).toBe(true);
    expect(isKnownCode(10031099)).toBe(false);
    // Inherited properties of the object are not codes.
    expect(isKnownCode(Number("toString"))).toBe(false);
  });

  it("gives the user sentence of a known code and a sentence naming an unknown one", () => {
    expect(userMessage(30010000)).toBe("Your balance is too low for this task.");
    expect(userMessage(10031099)).toBe("The service answered with error 10031099.");
  });

  it("gives the field a code concerns, and none for codes without one or unknown codes", () => {
    expect(errorField(10031002)).toBe("face");
    expect(errorField(10033015)).toBe("format");
    expect(errorField(30010000)).toBeUndefined();
    expect(errorField(10031099)).toBeUndefined();
  });
});
