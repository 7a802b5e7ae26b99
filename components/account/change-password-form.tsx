"use client";

import { CircleCheck, LoaderCircle } from "lucide-react";
import { useActionState, useEffect, useId, useRef } from "react";
import type { ChangePasswordState, PasswordField } from "@/lib/accounts";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/** The fields in the order the form shows them: the focus goes to the first one named in a refusal. */
const PASSWORD_FIELDS: readonly PasswordField[] = ["currentPassword", "newPassword", "confirmPassword"];

interface Props {
  /** The account's e-mail: a hidden username field, so a password manager updates the right entry. */
  email: string;
  /** The shortest new password allowed (lib/accounts/password-rules.ts), for the hint. */
  minLength: number;
  action: (state: ChangePasswordState, form: FormData) => Promise<ChangePasswordState>;
}

interface FieldProps {
  name: PasswordField;
  label: string;
  autoComplete: "current-password" | "new-password";
  hint?: string;
  error: string | undefined;
}

/** A password field with its label, an optional hint, and the server's refusal tied to it. */
function PasswordInput({ name, label, autoComplete, hint, error }: FieldProps) {
  const id = `${useId()}-${name}`;
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ");
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        name={name}
        type="password"
        required
        autoComplete={autoComplete}
        aria-invalid={!!error}
        aria-describedby={described || undefined}
        className="h-10"
      />
      {hint && !error && (
        <p id={`${id}-hint`} className="text-caption text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" data-testid={`${name}-error`} className="text-caption text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** Current password, new one, confirmation; a change signs out every other browser. */
export function ChangePasswordForm({ email, minLength, action }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const fields = state.status === "error" ? state.fields : {};
  const formRef = useRef<HTMLFormElement>(null);
  // The fields were shut while waiting, which took the focus away: after a refusal it goes to
  // the first field named in it, so typing goes on where it must.
  useEffect(() => {
    if (state.status !== "error") return;
    const named = PASSWORD_FIELDS.find((field) => state.fields[field]);
    if (named) formRef.current?.querySelector<HTMLInputElement>(`input[name="${named}"]`)?.focus();
  }, [state]);
  return (
    <form ref={formRef} action={formAction} noValidate aria-busy={pending} className="grid gap-5">
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      {/* Shut while the change is answered: React resets the form when the answer comes, which
          would silently wipe anything typed meanwhile (components/auth/auth-form.tsx). */}
      <fieldset disabled={pending} className="grid gap-5">
        <PasswordInput name="currentPassword" label="Current password" autoComplete="current-password" error={fields.currentPassword} />
        <div className="grid gap-5 sm:grid-cols-2">
          <PasswordInput
            name="newPassword"
            label="New password"
            autoComplete="new-password"
            hint={`At least ${minLength} characters. A few unrelated words work well.`}
            error={fields.newPassword}
          />
          <PasswordInput name="confirmPassword" label="Confirm new password" autoComplete="new-password" error={fields.confirmPassword} />
        </div>
        {state.status === "error" && state.message && (
          <p role="alert" className="text-body text-destructive">
            {state.message}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
          <Button type="submit" className="h-10">
            {pending && <LoaderCircle className="animate-spin" aria-hidden />}
            {pending ? "Changing…" : "Change password"}
          </Button>
          {/* Always in the page, so the message is announced when it appears. */}
          <p role="status" className="flex items-center gap-1.5 text-body text-success">
            {state.status === "saved" && !pending && (
              <>
                <CircleCheck className="size-4 shrink-0" aria-hidden />
                <span>Password changed. Every other browser is signed out.</span>
              </>
            )}
          </p>
        </div>
      </fieldset>
    </form>
  );
}
