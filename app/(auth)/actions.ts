"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { headers } from "next/headers";
import { z } from "zod";
import {
  createUser,
  MAX_PASSWORD_LENGTH,
  passwordProblem,
  recordSignUp,
  requestAddress,
  safeNext,
  signIn,
  signInWait,
  signUpWait,
} from "@/lib/accounts";
import type { AuthFormState } from "@/components/auth/auth-form-state";

const signUpSchema = z.object({
  name: z.string().trim().max(100, "Use at most 100 characters.").optional(),
  email: z.email("Enter a valid email address."),
  // Length and guessability: passwordProblem, which names the rule that failed.
  password: z.string().max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters.`),
});

/** Where to go after signing in: a path on this site from the form, else "/" (lib/accounts/safe-next). */
const target = (form: FormData) => safeNext(form.get("next"));

const clientAddress = async () => requestAddress(await headers());

export async function signInAction(_: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = String(form.get("email") ?? "");
  try {
    await signIn("credentials", { email, password: String(form.get("password") ?? ""), redirectTo: target(form) });
    return { status: "idle" };
  } catch (error) {
    if (error instanceof AuthError) {
      if (error instanceof CredentialsSignin && error.code === "disabled")
        return { status: "error", email, message: "This account is disabled. Ask an admin of this studio to enable it." };
      const wait = await signInWait(email, await clientAddress());
      return {
        status: "error",
        email,
        message: wait > 0 ? `Too many failed attempts. Try again in ${wait} seconds.` : "Wrong email or password.",
      };
    }
    throw error; // the redirect after success
  }
}

export async function signUpAction(_: AuthFormState, form: FormData): Promise<AuthFormState> {
  const parsed = signUpSchema.safeParse({
    name: form.get("name") || undefined,
    email: form.get("email"),
    password: form.get("password") ?? "",
  });
  const email = String(form.get("email") ?? "");
  const fields: Record<string, string> = {};
  for (const issue of parsed.error?.issues ?? []) fields[String(issue.path[0])] ??= issue.message;
  // Said along with any other field's problem, so one try shows them all.
  const password = form.get("password");
  if (typeof password === "string" && !fields.password) {
    const problem = await passwordProblem(password, [email, String(form.get("name") ?? "")]);
    if (problem) fields.password = problem;
  }
  if (!parsed.success || Object.keys(fields).length > 0) return { status: "error", email, fields };

  const address = await clientAddress();
  const wait = await signUpWait(address);
  if (wait > 0) return { status: "error", email, message: `Too many sign-ups from your network. Try again in ${wait} seconds.` };
  await recordSignUp(address);
  const user = await createUser(parsed.data.email, parsed.data.password, parsed.data.name);
  if (!user) return { status: "error", email, fields: { email: "An account with this email exists. Sign in instead." } };
  await signIn("credentials", { email: parsed.data.email, password: parsed.data.password, redirectTo: target(form) });
  return { status: "idle" };
}

export async function githubSignInAction(form: FormData): Promise<void> {
  await signIn("github", { redirectTo: target(form) });
}
