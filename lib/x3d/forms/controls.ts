/**
 * What a form's controls offer, read from a field of the spec: a select's options with their
 * labels, a number input's step and the hint of its range. Kept apart from ./endpoint-form so a
 * form that only lists choices loads nothing of the reading and checking of values.
 * Pure; safe to import from client components.
 */
import { intValues, type ChoiceField, type DecimalField, type IntChoiceField, type IntField } from "../endpoints/field";

/** A select's options for a choice field: each value with its label (the value itself when the field has none). */
export function choiceOptions<T extends string>(field: ChoiceField<T>, label: (label: string, value: T) => string = (l) => l) {
  return field.values.map((value) => ({ value, label: label(field.labels?.[value] ?? value, value) }));
}

/** A select's options for an int-choice field (formats, flags): each value with its label. */
export function intChoiceOptions<T extends number>(field: IntChoiceField<T>, label: (label: string, value: T) => string = (l) => l) {
  return intValues(field).map((value) => ({ value, label: label(field.values[value], value) }));
}

const placesOf = (step: number) => String(step).split(".")[1]?.length ?? 0;

/** The step a number input takes for a field. */
export function inputStep(field: IntField | DecimalField): number {
  return field.type === "int" ? 1 : (field.step ?? 0.1);
}

/** The hint under a number input: the field's range (and step), from the spec. */
export function rangeHint(field: IntField | DecimalField): string {
  if (field.type === "int") return `A whole number from ${field.min} to ${field.max}.`;
  const places = placesOf(inputStep(field));
  const steps = field.step === undefined ? "" : ` in steps of ${field.step}`;
  return `From ${field.min.toFixed(places)} to ${field.max.toFixed(places)}${steps}.`;
}
