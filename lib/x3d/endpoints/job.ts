/**
 * What the generators receive: an endpoint's values under their job names, yes/no fields as
 * booleans, fields the service ignores at their `ignored` value. The schema parses job options
 * where they come out of the database.
 */
import { z } from "zod";
import { fieldOrder, intValues, type EndpointSpec, type Field, type Fields, type JobOf, type ValuesOf } from "./field";
import { applies, ruleOf } from "./read";

/** The job options for values read by the service. */
export function toJob<F extends Fields>(spec: EndpointSpec<F>, values: ValuesOf<F>): JobOf<F> {
  const out: Record<string, unknown> = {};
  for (const name of fieldOrder(spec)) {
    const field = spec.fields[name];
    if (!field?.job) continue;
    const ignored = ruleOf(spec, name).ignored;
    const value = ignored !== undefined && !applies(spec, name, values) ? ignored : values[name];
    out[field.job.name] = field.job.boolean ? value === 1 || value === "yes" : value;
  }
  return out as JobOf<F>;
}

/** The zod type of a field's typed value. */
export function valueSchema(field: Field): z.ZodType<string | number> {
  switch (field.type) {
    case "choice":
      return z.enum(field.values as [string, ...string[]]);
    case "int-choice":
      return z.literal(intValues(field));
    case "int":
      return z.number().int().min(field.min).max(field.max);
    case "decimal":
      return z.number().min(field.min).max(field.max);
  }
}

/** Parses job options (e.g. a task's stored options) into the job's shape, or throws. */
export function jobSchema<F extends Fields>(spec: EndpointSpec<F>): z.ZodType<JobOf<F>> {
  const shape: Record<string, z.ZodType> = {};
  for (const name of fieldOrder(spec)) {
    const field = spec.fields[name];
    if (field?.job) shape[field.job.name] = field.job.boolean ? z.boolean() : valueSchema(field);
  }
  return z.object(shape) as unknown as z.ZodType<JobOf<F>>;
}
