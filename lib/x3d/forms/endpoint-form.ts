/**
 * A studio form of any endpoint, read from its spec: the values it starts from, which fields it
 * shows for the values chosen, the problems of those values, what it sends, and the reading of
 * a submitted FormData. The forms of each kind (./image, ./depth, ./split) build on it; its
 * controls' choices and hints are ./controls. Pure; safe to import from client components.
 */
import { fieldOrder, type EndpointSpec, type Fields, type FormValuesOf, type ValuesOf } from "../endpoints/field";
import { allowedProblem, checkProblem, checkValue, defaultOf, parseText, ruleOf, type Problem } from "../endpoints/read";

/** The fields the form has (not the ones it omits), in the order they are read. */
export function formFields<F extends Fields>(spec: EndpointSpec<F>): (keyof F & string)[] {
  return fieldOrder(spec).filter((name) => !spec.fields[name]?.form?.omit);
}

/** True when the form shows and checks the field for these values. */
export function formApplies<F extends Fields>(spec: EndpointSpec<F>, name: keyof F, values: ValuesOf<F>): boolean {
  const rule = ruleOf(spec, name);
  return (rule.formApplies ?? rule.applies)?.(values) ?? true;
}

/** The value a form starts from for a field: its own start, else the service's default. */
export function formStartOf<F extends Fields>(spec: EndpointSpec<F>, name: keyof F, values: ValuesOf<F>): string | number | undefined {
  return spec.fields[name]?.form?.start ?? defaultOf(spec, name, values);
}

/** A form's starting values, with `given` values kept (each start may depend on the fields before it). */
export function formStart<F extends Fields>(spec: EndpointSpec<F>, given: Partial<ValuesOf<F>> = {}): ValuesOf<F> {
  const values: Partial<Record<string, string | number>> = {};
  const sofar = values as ValuesOf<F>;
  const known = given as Partial<Record<string, string | number>>;
  for (const name of formFields(spec)) values[name] = known[name] ?? formStartOf(spec, name, sofar);
  return sofar;
}

/** The fields the form shows for these values (all its fields with `all`), each with its value. */
function* shownValues<F extends Fields>(spec: EndpointSpec<F>, values: ValuesOf<F>, all = false) {
  const record = values as Partial<Record<string, string | number>>;
  for (const name of formFields(spec)) {
    const field = spec.fields[name];
    const value = record[name];
    if (field && value !== undefined && (all || formApplies(spec, name, values))) yield { name, field, value, record };
  }
}

/** Problems of typed values: ranges and steps of the fields the form shows, what the others allow, the checks. */
export function formProblems<F extends Fields>(spec: EndpointSpec<F>, values: ValuesOf<F>): Problem[] {
  const problems: Problem[] = [];
  for (const { name, field, value } of shownValues(spec, values)) {
    const checked = checkValue(name, field, value);
    const problem = checked.ok ? allowedProblem(spec, name, values) : { field: name, code: field.code, detail: checked.detail };
    if (problem) problems.push(problem);
  }
  for (const step of spec.order) {
    if (typeof step === "object" && "check" in step && !step.ok(values)) problems.push(checkProblem(step, values));
  }
  return problems;
}

/** What the form sends: the fields it shows for these values, snapped to their steps. */
export function formWire<F extends Fields>(spec: EndpointSpec<F>, values: ValuesOf<F>): Partial<ValuesOf<F>> {
  const out: Partial<Record<string, string | number>> = {};
  for (const { name, field, value } of shownValues(spec, values)) {
    const checked = checkValue(name, field, value);
    out[name] = checked.ok ? checked.value : value;
  }
  return out as Partial<ValuesOf<F>>;
}

/**
 * A submitted form: the fields it shows (those that apply to the values before them). Types
 * first: when a field is missing or not of its type, only those problems are reported; then
 * `formProblems`. Fields the form hides get their starting value.
 */
export function readForm<F extends Fields>(
  spec: EndpointSpec<F>,
  text: (name: string) => string | undefined,
): { ok: true; values: FormValuesOf<F> } | { ok: false; problems: Problem[] } {
  const values: Partial<Record<string, string | number>> = {};
  const sofar = values as ValuesOf<F>;
  const typeProblems: Problem[] = [];
  for (const name of formFields(spec)) {
    const field = spec.fields[name];
    if (!field) continue;
    // After a type problem the values are incomplete: rules that read them are not asked.
    const complete = typeProblems.length === 0;
    const start = complete ? formStartOf(spec, name, sofar) : (field.form?.start ?? field.default);
    if (complete && !formApplies(spec, name, sofar)) {
      values[name] = start;
      continue;
    }
    const raw = text(name);
    if (raw === undefined) {
      if (field.form?.required || start === undefined) {
        typeProblems.push({ field: name, code: field.requiredCode ?? field.code, detail: `${name} is required` });
      } else values[name] = start;
      continue;
    }
    const parsed = parseText(name, field, raw);
    if (parsed.ok) values[name] = parsed.value;
    else typeProblems.push({ field: name, code: field.code, detail: parsed.detail });
  }
  if (typeProblems.length > 0) return { ok: false, problems: typeProblems };
  const problems = formProblems(spec, sofar);
  if (problems.length > 0) return { ok: false, problems };
  // formFields leaves out exactly the fields FormValuesOf leaves out.
  return { ok: true, values: snapAll(spec, sofar) as unknown as FormValuesOf<F> };
}

/** Every value snapped to its step, in place (the form keeps hidden fields at their start). */
function snapAll<F extends Fields>(spec: EndpointSpec<F>, values: ValuesOf<F>): ValuesOf<F> {
  for (const { name, field, value, record } of shownValues(spec, values, true)) {
    const checked = checkValue(name, field, value);
    if (checked.ok) record[name] = checked.value;
  }
  return values;
}

/** The wire names a studio form shows problems beside: the endpoint's table without the callback, the fields the form omits, and `without`. */
export function formShows<F extends Fields>(spec: EndpointSpec<F>, without: readonly string[] = []): string[] {
  return spec.table.filter((name) => name !== "callback_url" && !spec.fields[name]?.form?.omit && !without.includes(name));
}

/** Which of `names` the form shows for these values. */
export function shownFields<F extends Fields, K extends keyof F & string>(
  spec: EndpointSpec<F>,
  names: readonly K[],
  values: ValuesOf<F>,
): Record<K, boolean> {
  const out = {} as Record<K, boolean>;
  for (const name of names) out[name] = formApplies(spec, name, values);
  return out;
}
