/**
 * The vocabulary of the option specs (./submit-task.ts, ./split.ts, ./depth.ts,
 * ./segmentation.ts): a field is a wire name, a type with its allowed values or range, the
 * service's default, the catalogue code an invalid value answers, the sentence an artist
 * reads, and how the value reaches the generators' job. Rules that depend on other fields
 * (which resolutions a model offers, whether pbr applies) live in the endpoint's `rules`.
 * Pure data and pure functions; safe to import from client components.
 */
import type { CostTable } from "../costs";
import type { ErrorCode } from "../errors";

interface FieldBase<T extends string | number> {
  /** What the field means, for the OpenAPI document and the docs. */
  doc: string;
  /** The catalogue code of an invalid value; the catalogue holds the sentence an artist reads. */
  code: ErrorCode;
  /** The service's value when the field is absent; undefined makes the field required. */
  default?: T;
  /** The code of a missing required field (default: `code`). */
  requiredCode?: ErrorCode;
  /** The typed client sends the default when the field applies and was not given. */
  clientFills?: boolean;
  /**
   * The studio's form: `start`, the value it starts from where it differs from the service's
   * default; `required`, a form without the field is refused (the form always sends it);
   * `omit`, the form has no such field.
   */
  form?: { start?: T; required?: true; omit?: true };
  /** The name the generators' job gives the value (camelCase), and whether it is a yes/no. */
  job?: { name: string; boolean?: boolean };
}

export interface ChoiceField<T extends string = string> extends FieldBase<T> {
  type: "choice";
  values: readonly T[];
  /** A label per value, for forms and docs. */
  labels?: Readonly<Record<T, string>>;
}
export interface IntChoiceField<T extends number = number> extends FieldBase<T> {
  type: "int-choice";
  /** Value -> label (formats, flags, request types). */
  values: Readonly<Record<T, string>>;
}
export interface IntField extends FieldBase<number> {
  type: "int";
  min: number;
  max: number;
}
export interface DecimalField extends FieldBase<number> {
  type: "decimal";
  min: number;
  max: number;
  /** The grid the value must lie on; values are rounded to it. */
  step?: number;
  /** On the wire as a string with this many decimals (depth's thickness_base). */
  wireDecimals?: number;
}

export type Field = ChoiceField | IntChoiceField | IntField | DecimalField;
export type Fields = Readonly<Record<string, Field>>;

/** The value type of a field: its values (choices), the keys of its values (int choices), or a number. */
export type ValueOf<F> = F extends { type: "choice"; values: readonly (infer T)[] }
  ? T
  : F extends { type: "int-choice"; values: infer R }
    ? keyof R & number
    : F extends { type: "int" | "decimal" }
      ? number
      : never;
/** Typed option values of an endpoint, by wire name. */
export type ValuesOf<F extends Fields> = { -readonly [K in keyof F]: ValueOf<F[K]> };

/** The values the studio's form edits: the fields it does not omit. */
export type FormValuesOf<F extends Fields> = {
  -readonly [K in keyof F as F[K] extends { form: { omit: true } } ? never : K]: ValueOf<F[K]>;
};

type JobValue<F> = F extends { job: { boolean: true } } ? boolean : ValueOf<F>;
type JobName<F> = F extends { job: { name: infer N extends string } } ? N : never;
/** The options part of a generator's job: job names, yes/no fields as booleans. */
export type JobOf<F extends Fields> = { -readonly [K in keyof F as JobName<F[K]>]: JobValue<F[K]> };

/** Rules that depend on fields read before: what is allowed, the default, whether the field applies at all. */
export interface Rule<V, T> {
  /** The values allowed given the fields read so far (e.g. a model's resolutions). */
  allowed?: (v: V) => readonly T[];
  /** The code when a value is valid but not allowed here (default: the field's code). */
  allowedCode?: ErrorCode;
  /** The default given the fields read so far. */
  default?: (v: V) => T;
  /**
   * False when the service ignores the field: the client drops it, the form hides it and does
   * not check it, and the job gets `ignored` (or the value read, when `ignored` is unset).
   */
  applies?: (v: V) => boolean;
  ignored?: T;
  /** The studio form's own applicability, where it differs (the form hides face when texturing). */
  formApplies?: (v: V) => boolean;
  /** The rule in words, for the OpenAPI document. */
  doc?: string;
}
type Rules<F extends Fields> = { [K in keyof F]?: Rule<ValuesOf<F>, ValueOf<F[K]>> };

/** An input (file or URL) the endpoint checks at this point of its order; inputs are not options. */
export interface InputStep {
  input: string;
}

/** A rule across fields, checked at this point of the order (e.g. "this model cannot texture"). */
export interface CheckStep<V> {
  check: string;
  /** The field the problem is shown on. */
  field: string;
  code: ErrorCode;
  ok: (v: V) => boolean;
  /** The service's detail after the catalogue's msg. */
  detail: (v: V) => string;
}

type Step<F extends Fields> = keyof F | InputStep | CheckStep<ValuesOf<F>>;

/** A file or URL input of an endpoint, as documented (the service checks it in code: sniffing, sizes). */
export interface InputDoc {
  kind: "file" | "files" | "url" | "text";
  doc: string;
  /** The codes its checks answer. */
  codes: readonly ErrorCode[];
}

/** The labels of a 0/1 flag (pbr, rmbg and the like), shared by the endpoints that have one. */
export const FLAG_LABELS = { 0: "off", 1: "on" } as const;

/** Every endpoint's callback. */
export const CALLBACK_INPUT: Readonly<Record<string, InputDoc>> = {
  callback_url: { kind: "url", doc: "Called with the task's final state.", codes: [10030001] },
};

/** The mesh inputs of split and segmentation, and the callback. */
export const MESH_INPUTS: Readonly<Record<string, InputDoc>> = {
  mesh: {
    kind: "file",
    doc: "The mesh: GLB, STL or OBJ, at most 200 MB.",
    codes: [10030003, 10030004, 10030005, 10030006, 10030008, 10030012],
  },
  mesh_url: { kind: "url", doc: "Or the mesh's http(s) URL (.glb, .stl or .obj).", codes: [10030005, 10030007] },
  ...CALLBACK_INPUT,
};

export interface EndpointSpec<F extends Fields = Fields> {
  /** The path under /open-api/v1. */
  path: string;
  summary: string;
  fields: F;
  rules: Rules<F>;
  /** Fields and inputs in the order the contract checks them (the first failure answers). */
  order: readonly Step<F>[];
  /** Every field and input in the order of the contract's table: how requests are sent and documented. */
  table: readonly string[];
  inputs: Readonly<Record<string, InputDoc>>;
  /** Credits a task costs with these values under a cost table; undefined when the table has no price. */
  cost: (table: CostTable, values: ValuesOf<F>) => number | undefined;
  /** The Authorization scheme of its create request ("Token" endpoints also take Bearer). */
  scheme: "Bearer" | "Token";
  /** The query endpoint of its tasks and that endpoint's scheme. */
  query: { path: string; scheme: "Bearer" | "Token" };
}

/** The cross-field checks of a spec. */
export function checksOf<F extends Fields>(spec: EndpointSpec<F>): CheckStep<ValuesOf<F>>[] {
  return spec.order.filter((s): s is CheckStep<ValuesOf<F>> => typeof s === "object" && "check" in s);
}

/** The option fields of a spec in the order they are checked. */
export function fieldOrder<F extends Fields>(spec: EndpointSpec<F>): (keyof F & string)[] {
  return spec.order.filter((s): s is keyof F & string => typeof s === "string");
}

/** `record`'s keys in the spec's table order (keys the table does not name keep their place after them). */
export function inTableOrder<T extends object>(spec: { table: readonly string[] }, record: T): T {
  const out: Record<string, unknown> = {};
  const source = record as Record<string, unknown>;
  for (const key of spec.table) if (key in source) out[key] = source[key];
  for (const [key, value] of Object.entries(source)) if (!(key in out)) out[key] = value;
  return out as T;
}

/** Identity with inference: keeps the literal types of the fields. */
export function endpoint<F extends Fields>(spec: EndpointSpec<F>): EndpointSpec<F> {
  return spec;
}

// ---------------------------------------------------------------- small helpers

/** Keys of an int-choice field, as numbers. */
export function intValues<T extends number>(field: IntChoiceField<T>): T[] {
  return Object.keys(field.values).map(Number) as T[];
}

/** The values a choice or int-choice field allows. */
export function choices(field: Field): readonly (string | number)[] | undefined {
  if (field.type === "choice") return field.values;
  if (field.type === "int-choice") return intValues(field);
  return undefined;
}

/** True when `value` lies on the grid of `step` (tolerating float noise). */
export function onStep(value: number, step: number): boolean {
  return Math.abs(value / step - Math.round(value / step)) < 1e-6;
}

/** Rounds to the step's grid without float noise (0.7000000000000001 -> 0.7). */
export function snap(value: number, step: number): number {
  const decimals = String(step).split(".")[1]?.length ?? 0;
  return Number((Math.round(value / step) * step).toFixed(decimals));
}

/** A number for people: 5000000 -> "5,000,000". */
export const grouped = (n: number): string => n.toLocaleString("en-US");
/** A decimal with a fixed number of places: (50, 1) -> "50.0". */
export const fixed = (n: number, places: number): string => n.toFixed(places);
