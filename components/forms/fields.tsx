/** Small building blocks shared by the create forms: labelled fields, errors, the submit button. */
import { useId } from "react";
import { ScriptButton } from "@/components/ui/script-button";

export const inputClass =
  "mt-1 w-full rounded-md border border-border bg-card px-3 py-2 text-sm outline-none focus:border-primary focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-destructive/50";

/** A sentence about one field, announced when it appears. */
export function FieldError({ message, id }: { message?: string | undefined; id?: string }) {
  if (!message) return null;
  return (
    <span id={id} role="alert" className="mt-1 block text-xs text-destructive">
      {message}
    </span>
  );
}

interface FieldProps {
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  /** Renders the control with its id and the id of its description. */
  children: (ids: { id: string; describedBy: string }) => React.ReactNode;
}

/**
 * A label for one control, with a hint and the field's error. The label holds only its text,
 * so the control's accessible name is exactly `label`; hint and error describe it.
 */
export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId();
  const describedBy = `${id}-description`;
  return (
    <div className="text-sm">
      <label htmlFor={id} className="block">
        {label}
      </label>
      {children({ id, describedBy })}
      <span id={describedBy}>
        {hint && !error && <span className="mt-1 block text-xs text-muted-foreground">{hint}</span>}
        <FieldError message={error} />
      </span>
    </div>
  );
}

type Choices<T> = readonly { value: T; label: string; disabled?: boolean }[];

interface SelectFieldProps<T extends string | number> {
  label: string;
  name: string;
  value: T;
  options: Choices<T>;
  onChange: (value: T) => void;
  hint?: string | undefined;
  error?: string | undefined;
}

/** A select over typed values (numbers come back as numbers). */
export function SelectField<T extends string | number>({ label, name, value, options, onChange, hint, error }: SelectFieldProps<T>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy }) => (
        <select
          id={id}
          aria-describedby={describedBy}
          name={name}
          value={String(value)}
          aria-invalid={!!error}
          onChange={(e) => {
            const picked = options.find((o) => String(o.value) === e.target.value);
            if (picked) onChange(picked.value);
          }}
          className={inputClass}
        >
          {options.map((o) => (
            <option key={String(o.value)} value={String(o.value)} disabled={o.disabled}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/**
 * Selects bound to one options object: each takes its name, value and error from its key and
 * reports a pick through `set`. `const select = bindSelects(options, set, errors)`, then
 * `select("format", "Format", FORMAT_OPTIONS)`.
 */
export function bindSelects<O extends Record<keyof O, string | number>>(
  values: O,
  set: <K extends keyof O>(key: K, value: O[K]) => void,
  errors: Record<string, string>,
) {
  return function select<K extends keyof O & string>(key: K, label: string, options: Choices<O[K]>) {
    return <SelectField label={label} name={key} value={values[key]} options={options} onChange={(v) => set(key, v)} error={errors[key]} />;
  };
}

interface TextFieldProps {
  label: string;
  name: string;
  /** Kept as typed (a half-typed number is not rewritten under the cursor). */
  value: string;
  onChange: (value: string) => void;
  hint?: string | undefined;
  error?: string | undefined;
}

/** A labelled input whose value is a string as typed; `input` holds the attributes of its kind. */
function TextField({
  label,
  name,
  value,
  onChange,
  hint,
  error,
  input,
}: TextFieldProps & { input: React.InputHTMLAttributes<HTMLInputElement> }) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy }) => (
        <input
          id={id}
          aria-describedby={describedBy}
          {...input}
          name={name}
          value={value}
          aria-invalid={!!error}
          onChange={(e) => onChange(e.target.value)}
          className={inputClass}
        />
      )}
    </Field>
  );
}

export function NumberField({ min, max, step, ...field }: TextFieldProps & { min: number; max: number; step: number }) {
  return <TextField {...field} input={{ type: "number", inputMode: "decimal", min, max, step }} />;
}

/** A link the service fetches; the URL check is the server's. */
export function UrlField({ placeholder, ...field }: TextFieldProps & { placeholder: string }) {
  return <TextField {...field} input={{ type: "url", placeholder }} />;
}

interface RadioButtonsProps<T extends string> {
  /** The form field that carries the choice. */
  name: string;
  /** The group's accessible name. */
  label: string;
  value: T;
  options: readonly (readonly [value: T, label: string])[];
  onChange: (value: T) => void;
  /** Lets the buttons wrap onto another line. */
  wrap?: boolean;
}

/** A choice shown as a row of toggle buttons (a radio group), submitted through a hidden input. */
export function RadioButtons<T extends string>({ name, label, value, options, onChange, wrap = false }: RadioButtonsProps<T>) {
  return (
    <>
      <input type="hidden" name={name} value={value} />
      <div role="radiogroup" aria-label={label} className={wrap ? "flex flex-wrap gap-2 text-sm" : "flex gap-2 text-sm"}>
        {options.map(([option, text]) => (
          <button
            key={option}
            type="button"
            role="radio"
            aria-checked={value === option}
            onClick={() => onChange(option)}
            className={`rounded-md border px-3 py-1.5 ${value === option ? "border-primary text-primary" : "border-border text-muted-foreground"}`}
          >
            {text}
          </button>
        ))}
      </div>
    </>
  );
}

/** A sentence about the whole form. */
export function FormAlert({ message }: { message?: string | undefined }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      data-testid="form-error"
      className="rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm text-destructive"
    >
      {message}
    </p>
  );
}

export function SubmitButton({ pending, children }: { pending: boolean; children: React.ReactNode }) {
  return (
    <ScriptButton
      type="submit"
      disabled={pending}
      className="rounded-md bg-primary px-4 py-2 text-sm font-medium hover:bg-primary/90 disabled:opacity-50"
    >
      {pending ? "Starting…" : children}
    </ScriptButton>
  );
}

/** A notice from the page (e.g. inputs of a "run again" that are gone). */
export function Notice({ message }: { message?: string | undefined }) {
  if (!message) return null;
  return <p className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm text-warning">{message}</p>;
}
