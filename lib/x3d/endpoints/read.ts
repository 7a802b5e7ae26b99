/**
 * Reads an endpoint's option fields from text (a multipart form's fields, the studio's
 * FormData) by its spec, and the rules' answers for given values. The service reads in the
 * contract's order and stops at the first problem; the studio's form is ../forms/endpoint-form.ts.
 * Pure; safe to import from client components.
 */
import type { ErrorCode } from "../errors";
import {
  intValues,
  onStep,
  snap,
  type CheckStep,
  type EndpointSpec,
  type Field,
  type Fields,
  type InputStep,
  type Rule,
  type ValuesOf,
} from "./field";

export interface Problem {
  field: string;
  code: ErrorCode;
  /** What exactly was wrong, for the service's `msg`. */
  detail: string;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; detail: string };

const INTEGER = /^[+-]?\d+(\.0*)?$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** Text to the field's type (whole numbers may be written "3.0"); ranges are checked by `checkValue`. */
export function parseText(name: string, field: Field, raw: string): Parsed<string | number> {
  switch (field.type) {
    case "choice":
      return field.values.includes(raw) ? { ok: true, value: raw } : { ok: false, detail: oneOf(name, field.values, raw) };
    case "int-choice": {
      const n = Number(raw);
      const allowed = intValues(field);
      return INTEGER.test(raw) && allowed.includes(n) ? { ok: true, value: n } : { ok: false, detail: oneOf(name, allowed, raw) };
    }
    case "int": {
      const n = Number(raw);
      return INTEGER.test(raw) && Number.isSafeInteger(n) ? { ok: true, value: n } : { ok: false, detail: rangeText(name, field, raw) };
    }
    case "decimal": {
      const n = Number(raw);
      return DECIMAL.test(raw) && Number.isFinite(n) ? { ok: true, value: n } : { ok: false, detail: rangeText(name, field, raw) };
    }
  }
}

/** Range and step of a typed value; the value as the service keeps it (snapped to the step). */
export function checkValue(name: string, field: Field, value: string | number, shown: string = String(value)): Parsed<string | number> {
  if (field.type === "int" || field.type === "decimal") {
    if (typeof value !== "number" || !Number.isFinite(value)) return { ok: false, detail: rangeText(name, field, shown) };
    const tolerance = field.type === "decimal" ? 1e-9 : 0;
    const whole = field.type === "decimal" || Number.isInteger(value);
    if (!whole || value < field.min - tolerance || value > field.max + tolerance)
      return { ok: false, detail: rangeText(name, field, shown) };
    if (field.type === "decimal" && field.step !== undefined) {
      if (!onStep(value, field.step)) return { ok: false, detail: rangeText(name, field, shown) };
      return { ok: true, value: snap(value, field.step) };
    }
  }
  return { ok: true, value };
}

export function oneOf(name: string, allowed: readonly (string | number)[], raw: string): string {
  return `${name} must be one of ${allowed.join(", ")}, got "${raw}"`;
}

export function rangeText(name: string, field: Field, raw: string): string {
  if (field.type === "int") return `${name} must be a whole number from ${field.min} to ${field.max}, got "${raw}"`;
  if (field.type === "decimal") {
    const step = field.step ? ` in steps of ${field.step}` : "";
    return `${name} must be from ${field.min} to ${field.max}${step}, got "${raw}"`;
  }
  return `${name} is not valid, got "${raw}"`;
}

/** The rule of a field, typed loosely for the interpreters (the spec types it per field). */
export function ruleOf<F extends Fields>(spec: EndpointSpec<F>, name: keyof F): Rule<ValuesOf<F>, string | number> {
  const rule: Rule<ValuesOf<F>, string | number> | undefined = spec.rules[name];
  return rule ?? {};
}

/** True when the service takes the field into account for these values. */
export function applies<F extends Fields>(spec: EndpointSpec<F>, name: keyof F, values: ValuesOf<F>): boolean {
  return ruleOf(spec, name).applies?.(values) ?? true;
}

/** The service's default for a field given the fields before it; undefined when it is required. */
export function defaultOf<F extends Fields>(spec: EndpointSpec<F>, name: keyof F, values: ValuesOf<F>): string | number | undefined {
  return ruleOf(spec, name).default?.(values) ?? spec.fields[name]?.default;
}

/** The values a field allows given the others; undefined when only its type restricts it. */
export function allowedOf<F extends Fields>(
  spec: EndpointSpec<F>,
  name: keyof F,
  values: ValuesOf<F>,
): readonly (string | number)[] | undefined {
  return ruleOf(spec, name).allowed?.(values);
}

export function allowedProblem<F extends Fields>(spec: EndpointSpec<F>, name: keyof F & string, values: ValuesOf<F>): Problem | undefined {
  const allowed = allowedOf(spec, name, values);
  const value = values[name];
  if (!allowed || allowed.includes(value)) return undefined;
  const field = spec.fields[name];
  const code = ruleOf(spec, name).allowedCode ?? field?.code ?? 10000000;
  return { field: name, code, detail: oneOf(name, allowed, String(value)) };
}

/**
 * The service's reading: every field in the contract's order (inputs and cross-field checks
 * where the order puts them), each parsed, range-checked and defaulted. `fail` is called with
 * the first problem and must throw; `input` handles the input steps.
 */
export function readForService<F extends Fields>(
  spec: EndpointSpec<F>,
  text: (name: string) => string | undefined,
  fail: (problem: Problem) => never,
  input: (step: InputStep, values: Partial<ValuesOf<F>>) => void = () => {},
): ValuesOf<F> {
  const values: Partial<Record<string, string | number>> = {};
  // Partial while reading: each rule only reads fields the order put before it.
  const sofar = values as ValuesOf<F>;
  for (const step of spec.order) {
    if (typeof step === "object") {
      if ("input" in step) input(step, sofar);
      else if (!(step as CheckStep<ValuesOf<F>>).ok(sofar)) fail(checkProblem(step as CheckStep<ValuesOf<F>>, sofar));
      continue;
    }
    const name = step as keyof F & string;
    const field = spec.fields[name];
    if (!field) continue;
    const raw = text(name);
    if (raw === undefined) {
      const fallback = defaultOf(spec, name, sofar);
      if (fallback === undefined) {
        const labels = field.type === "int-choice" ? Object.entries(field.values).map(([k, l]) => `${k} ${l}`) : (choicesText(field) ?? []);
        fail({ field: name, code: field.requiredCode ?? field.code, detail: `${name} is required: ${labels.join(", ")}` });
      }
      values[name] = fallback;
      continue;
    }
    const parsed = parseText(name, field, raw);
    if (!parsed.ok) fail({ field: name, code: field.code, detail: parsed.detail });
    const checked = checkValue(name, field, parsed.value, raw);
    if (!checked.ok) fail({ field: name, code: field.code, detail: checked.detail });
    values[name] = checked.value;
    const notAllowed = allowedProblem(spec, name, sofar);
    if (notAllowed) fail({ ...notAllowed, detail: oneOf(name, allowedOf(spec, name, sofar) ?? [], raw) });
  }
  return sofar;
}

function choicesText(field: Field): string[] | undefined {
  return field.type === "choice" ? [...field.values] : undefined;
}

export function checkProblem<V>(step: CheckStep<V>, values: V): Problem {
  return { field: step.field, code: step.code, detail: step.detail(values) };
}
