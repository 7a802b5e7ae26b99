/**
 * The typed client's request schemas, derived from an endpoint's spec: each field typed and
 * ranged, cross-field rules as coded issues, and the output as it goes on the wire (defaults
 * the client fills, fields the service would ignore dropped, decimals snapped to their step).
 * Inputs (files, URLs) are added by lib/x3d/schemas. Safe to import from client components.
 */
import { z } from "zod";
import type { ErrorCode } from "../errors";
import { fieldOrder, onStep, snap, type EndpointSpec, type Field, type Fields, type ValueOf, type ValuesOf } from "./field";
import { valueSchema } from "./job";
import { allowedOf, applies, defaultOf, oneOf, ruleOf } from "./read";
type WireValueOf<F> = F extends { wireDecimals: number } ? string : ValueOf<F>;
/** The options as they go on the wire. */
export type OptionsWire<F extends Fields> = { [K in keyof F]?: WireValueOf<F[K]> };
/** The zod shape of an endpoint's option fields. */
export type OptionsShape<F extends Fields> = { [K in keyof F]: z.ZodOptional<z.ZodType<WireValueOf<F[K]>, ValueOf<F[K]>>> };

function fieldSchema(field: Field): z.ZodType {
  if (field.type !== "decimal" || field.step === undefined) return valueSchema(field);
  const step = field.step;
  const stepped = z
    .number()
    .min(field.min)
    .max(field.max)
    .refine((v) => onStep(v, step), `must be a multiple of ${step}`)
    .transform((v) => snap(v, step));
  const places = field.wireDecimals;
  return places === undefined ? stepped : stepped.transform((v) => v.toFixed(places));
}

/** The zod shape of the option fields, each optional (required ones are checked by `refineOptions`). */
export function optionsShape<F extends Fields>(spec: EndpointSpec<F>): OptionsShape<F> {
  const shape: Record<string, z.ZodOptional<z.ZodType>> = {};
  for (const name of fieldOrder(spec)) {
    const field = spec.fields[name];
    if (field) shape[name] = fieldSchema(field).optional();
  }
  // Each entry is built from its field by fieldSchema, whose types follow ValueOf.
  return shape as OptionsShape<F>;
}

/** The catalogue code of each option field's plain issues. */
export function optionCodes<F extends Fields>(spec: EndpointSpec<F>): Record<string, ErrorCode> {
  const codes: Record<string, ErrorCode> = {};
  for (const name of fieldOrder(spec)) {
    const field = spec.fields[name];
    if (field) codes[name] = field.code;
  }
  return codes;
}

/** Given values completed with the service's defaults, for evaluating rules. */
function completed<F extends Fields>(spec: EndpointSpec<F>, given: Record<string, unknown>): ValuesOf<F> {
  const values: Record<string, unknown> = {};
  const sofar = values as ValuesOf<F>;
  for (const name of fieldOrder(spec)) values[name] = given[name] ?? defaultOf(spec, name, sofar);
  return sofar;
}

/** Issues of the cross-field rules: required fields, values another field does not allow, the checks. */
export function refineOptions<F extends Fields>(spec: EndpointSpec<F>, given: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const values = completed(spec, given);
  for (const name of fieldOrder(spec)) {
    const field = spec.fields[name];
    if (!field) continue;
    if (given[name] === undefined && values[name] === undefined) {
      issue(ctx, field.requiredCode ?? field.code, name, `${name} is required`);
      continue;
    }
    const allowed = given[name] === undefined ? undefined : allowedOf(spec, name, values);
    if (allowed && !allowed.includes(values[name])) {
      issue(ctx, ruleOf(spec, name).allowedCode ?? field.code, name, oneOf(name, allowed, String(values[name])));
    }
  }
  for (const step of spec.order) {
    if (typeof step === "object" && "check" in step && !step.ok(values)) issue(ctx, step.code, step.field, step.detail(values));
  }
}

/** The options to send: what was given or the client fills, without what the service would ignore. */
export function wireOptions<F extends Fields>(spec: EndpointSpec<F>, given: Record<string, unknown>): Record<string, unknown> {
  const values = completed(spec, given);
  const out: Record<string, unknown> = {};
  for (const name of fieldOrder(spec)) {
    const field = spec.fields[name];
    if (!field) continue;
    if (!applies(spec, name, values)) out[name] = undefined;
    else if (given[name] !== undefined) out[name] = given[name];
    else if (field.clientFills) out[name] = values[name];
  }
  return out;
}

function issue(ctx: z.RefinementCtx, x3dCode: ErrorCode, path: string, message: string): void {
  ctx.addIssue({ code: "custom", path: [path], message, params: { x3dCode } });
}
