/** Small building blocks shared by the create forms: labelled fields, errors, the submit button. */
import { useId } from "react";

export const inputClass =
  "mt-1 w-full rounded-md border border-neutral-700 bg-neutral-900 px-3 py-2 text-sm outline-none focus:border-sky-500 aria-[invalid=true]:border-red-500/70";

/** A sentence about one field, announced when it appears. */
export function FieldError({ message, id }: { message?: string | undefined; id?: string }) {
  if (!message) return null;
  return (
    <span id={id} role="alert" className="mt-1 block text-xs text-red-400">
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
        {hint && !error && <span className="mt-1 block text-xs text-neutral-500">{hint}</span>}
        <FieldError message={error} />
      </span>
    </div>
  );
}

interface SelectFieldProps<T extends string | number> {
  label: string;
  name: string;
  value: T;
  options: readonly { value: T; label: string; disabled?: boolean }[];
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

interface NumberFieldProps {
  label: string;
  name: string;
  /** Kept as typed so a half-typed number is not rewritten under the cursor. */
  value: string;
  onChange: (value: string) => void;
  min: number;
  max: number;
  step: number;
  hint?: string | undefined;
  error?: string | undefined;
}

export function NumberField({ label, name, value, onChange, min, max, step, hint, error }: NumberFieldProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy }) => (
        <input
          id={id}
          aria-describedby={describedBy}
          type="number"
          name={name}
          inputMode="decimal"
          value={value}
          min={min}
          max={max}
          step={step}
          aria-invalid={!!error}
          onChange={(e) => onChange(e.target.value)}
          className={inputClass}
        />
      )}
    </Field>
  );
}

/** A sentence about the whole form. */
export function FormAlert({ message }: { message?: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" data-testid="form-error" className="rounded-md border border-red-500/40 bg-red-950/30 px-3 py-2 text-sm text-red-300">
      {message}
    </p>
  );
}

export function SubmitButton({ pending, children }: { pending: boolean; children: React.ReactNode }) {
  return (
    <button
      type="submit"
      disabled={pending}
      className="rounded-md bg-sky-600 px-4 py-2 text-sm font-medium hover:bg-sky-500 disabled:opacity-50"
    >
      {pending ? "Starting…" : children}
    </button>
  );
}

/** A notice from the page (e.g. inputs of a "run again" that are gone). */
export function Notice({ message }: { message?: string | undefined }) {
  if (!message) return null;
  return <p className="rounded-md border border-amber-500/40 bg-amber-950/30 px-3 py-2 text-sm text-amber-200">{message}</p>;
}
