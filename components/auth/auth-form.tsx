"use client";

import Link from "@/components/ui/link";
import { useActionState, useEffect, useRef } from "react";
import type { AuthFormState } from "./auth-form-state";

interface Props {
  mode: "sign-in" | "sign-up";
  action: (state: AuthFormState, form: FormData) => Promise<AuthFormState>;
  next: string;
}

const input =
  "mt-1.5 flex h-10 w-full rounded-md border border-input bg-background px-3 text-sm font-normal shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive";

/** A field's error, outside its label so the field's name stays its label; the field points at it. */
function FieldMessage({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span id={id} role="alert" className="mt-1 block text-xs text-destructive">
      {message}
    </span>
  );
}

/** Email and password form for signing in or up, with field errors from the server action. */
export function AuthForm({ mode, action, next }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: "idle" });
  const error = state.status === "error" ? state : undefined;
  const signUp = mode === "sign-up";
  const formRef = useRef<HTMLFormElement>(null);
  // The fields were shut while waiting, which took the focus away: after a refusal it goes to
  // the first field named in it, else the password, so typing goes on where it must.
  useEffect(() => {
    if (state.status !== "error") return;
    const named = ["name", "email", "password"].find((field) => state.fields?.[field]) ?? "password";
    formRef.current?.querySelector<HTMLInputElement>(`input[name="${named}"]`)?.focus();
  }, [state]);
  return (
    <form ref={formRef} action={formAction} className="space-y-4" noValidate aria-busy={pending}>
      <input type="hidden" name="next" value={next} />
      {/* Shut while an attempt is answered (fields and button): React resets the form when the
          answer comes, which would silently wipe anything typed meanwhile (and send an empty password next). */}
      <fieldset disabled={pending} className="space-y-4">
        {signUp && (
          <label className="block text-sm font-medium">
            Name <span className="text-muted-foreground">(optional)</span>
            <input name="name" autoComplete="name" className={input} />
          </label>
        )}
        <div>
          <label className="block text-sm font-medium">
            Email
            <input
              name="email"
              type="email"
              required
              autoComplete="email"
              defaultValue={error?.email}
              aria-invalid={!!error?.fields?.email}
              aria-describedby={error?.fields?.email ? "email-error" : undefined}
              className={input}
            />
          </label>
          <FieldMessage id="email-error" message={error?.fields?.email} />
        </div>
        <div>
          <label className="block text-sm font-medium">
            Password
            <input
              name="password"
              type="password"
              required
              autoComplete={signUp ? "new-password" : "current-password"}
              aria-invalid={!!error?.fields?.password}
              aria-describedby={error?.fields?.password ? "password-error" : undefined}
              className={input}
            />
          </label>
          <FieldMessage id="password-error" message={error?.fields?.password} />
        </div>
        {error?.message && (
          <p role="alert" data-testid="form-error" className="text-sm text-destructive">
            {error.message}
          </p>
        )}
        <button
          type="submit"
          className="flex h-10 w-full items-center justify-center rounded-md bg-primary px-3 text-sm font-medium text-primary-foreground shadow-sm hover:bg-primary/90 disabled:opacity-50"
        >
          {pending ? "…" : signUp ? "Create account" : "Sign in"}
        </button>
      </fieldset>
      <p className="text-center text-sm text-muted-foreground">
        {signUp ? (
          <>
            Have an account?{" "}
            <Link href={`/sign-in?next=${encodeURIComponent(next)}`} className="text-primary underline">
              Sign in
            </Link>
          </>
        ) : (
          <>
            New here?{" "}
            <Link href={`/sign-up?next=${encodeURIComponent(next)}`} className="text-primary underline">
              Create an account
            </Link>
          </>
        )}
      </p>
    </form>
  );
}
