import { ChoiceField, type Choice } from "./choice-field";

interface ChoiceExtras {
  columns?: 2 | 3;
  hint?: React.ReactNode;
}

/**
 * Choice fields bound to one options object: each takes its name, value and error from its key
 * and reports a pick through `set`. `const choice = bindChoices(options, set, errors)`, then
 * `choice("format", "Format", FORMAT_OPTIONS)`.
 */
export function bindChoices<O extends Record<keyof O, string | number>>(
  values: O,
  set: <K extends keyof O>(key: K, value: O[K]) => void,
  errors: Record<string, string>,
) {
  return function choice<K extends keyof O & string>(key: K, label: string, options: readonly Choice<O[K]>[], extras: ChoiceExtras = {}) {
    return (
      <ChoiceField
        label={label}
        name={key}
        value={values[key]}
        options={options}
        onChange={(v) => set(key, v)}
        error={errors[key]}
        columns={extras.columns}
        hint={extras.hint}
      />
    );
  };
}
