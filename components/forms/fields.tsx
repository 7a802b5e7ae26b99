/** Building blocks shared by the create forms: sections, labelled fields, errors, the submit button. */
import { Loader2 } from "lucide-react";
import { useId } from "react";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { ScriptButton } from "@/components/ui/script-button";

/** A sentence about one field, announced when it appears. */
export function FieldError({ message, id }: { message?: string | undefined; id?: string }) {
  if (!message) return null;
  return (
    <span id={id} role="alert" className="mt-1 block text-caption text-destructive">
      {message}
    </span>
  );
}

/** The hint under a field, or its error in its place; `id` is what the control's aria-describedby names. */
export function FieldNote({ id, hint, error }: { id: string; hint?: React.ReactNode; error?: string | undefined }) {
  return (
    <span id={id} className="block empty:hidden">
      {hint && !error ? <span className="mt-1.5 block text-caption text-muted-foreground">{hint}</span> : null}
      <FieldError message={error} />
    </span>
  );
}

/** One group of a form's fields under a small heading ("Input", "Model", "Geometry", "Output"). */
export function FormSection({ title, children }: { title: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-4 border-t border-border pt-4 first:border-t-0 first:pt-0">
      <h2 id={id} className="text-caption font-semibold tracking-wider text-muted-foreground uppercase">
        {title}
      </h2>
      {children}
    </section>
  );
}

interface FieldProps {
  label: string;
  hint?: React.ReactNode;
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
    <div>
      <Label htmlFor={id} className="mb-1.5 block">
        {label}
      </Label>
      {children({ id, describedBy })}
      <FieldNote id={describedBy} hint={hint} error={error} />
    </div>
  );
}

interface TextFieldProps {
  label: string;
  name: string;
  /** Kept as typed (a half-typed URL is not rewritten under the cursor). */
  value: string;
  onChange: (value: string) => void;
  hint?: string | undefined;
  error?: string | undefined;
}

/** A link the service fetches; the URL check is the server's. */
export function UrlField({ label, name, value, onChange, hint, error, placeholder }: TextFieldProps & { placeholder: string }) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy }) => (
        <Input
          id={id}
          type="url"
          aria-describedby={describedBy}
          name={name}
          value={value}
          placeholder={placeholder}
          aria-invalid={!!error}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
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

/** The form's one primary action, the width of the form column, with an icon saying what it makes. */
export function SubmitButton({ pending, icon, children }: { pending: boolean; icon: React.ReactNode; children: React.ReactNode }) {
  return (
    <ScriptButton type="submit" disabled={pending} className={cn(buttonVariants({ size: "lg" }), "w-full")}>
      {pending ? <Loader2 className="animate-spin" aria-hidden /> : icon}
      {pending ? "Starting…" : children}
    </ScriptButton>
  );
}

/** A notice from the page (e.g. inputs of a "run again" that are gone). */
export function Notice({ message }: { message?: string | undefined }) {
  if (!message) return null;
  return <p className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm text-warning">{message}</p>;
}
