import "server-only";
import { z } from "zod";
import { verifyPassword } from "./password-hash";
import { passwordProblem } from "./password-rules";
import { clearSignInFailures, findUserById, recordSignInFailure, setPassword, signInWait } from "./users";

/** The fields of the account page's password form, by their form names. */
export type PasswordField = "currentPassword" | "newPassword" | "confirmPassword";

/** What the password form shows after an attempt (app/(studio)/account/actions.ts). */
export type ChangePasswordState =
  { status: "idle" } | { status: "error"; fields: Partial<Record<PasswordField, string>>; message?: string } | { status: "saved" };

/** The form's three fields as text (a missing or non-text one is empty); their rules are checked below, by field. */
const form = z.object({
  currentPassword: z.string().catch(""),
  newPassword: z.string().catch(""),
  confirmPassword: z.string().catch(""),
});

export interface ChangePasswordRequest {
  userId: string;
  /** The handle of the session asking (lib/accounts/sessions.ts): it stays signed in, every other one ends. */
  keepHandle: string | null;
  /** The client's address, for the sign-in throttle. */
  address: string;
  /** The form's fields: currentPassword, newPassword, confirmPassword. */
  fields: Record<PasswordField, unknown>;
}

const wrongOrWait = (wait: number) =>
  wait > 0 ? `Too many failed attempts. Try again in ${wait} seconds.` : "This is not your current password.";

/**
 * Changes a signed-in user's password. The current one is checked under the sign-in throttle
 * (a stolen session must not be a way to guess it faster); the new one under sign-up's rules.
 * Every problem is said at once, by field; nothing changes unless all pass. A change ends every
 * other session of the account.
 */
export async function changePassword({ userId, keepHandle, address, fields: raw }: ChangePasswordRequest): Promise<ChangePasswordState> {
  const user = await findUserById(userId);
  if (!user) return { status: "error", fields: {}, message: "This account no longer exists." };
  if (!user.passwordHash)
    return { status: "error", fields: {}, message: "This account signs in with GitHub and has no password to change here." };

  const { currentPassword, newPassword, confirmPassword } = form.parse(raw);
  const fields: Partial<Record<PasswordField, string>> = {};

  if (!currentPassword) fields.currentPassword = "Enter your current password.";
  else {
    const wait = await signInWait(user.email, address);
    if (wait > 0) fields.currentPassword = wrongOrWait(wait);
    else if (!(await verifyPassword(currentPassword, user.passwordHash))) {
      await recordSignInFailure(user.email, address);
      fields.currentPassword = wrongOrWait(await signInWait(user.email, address));
    } else await clearSignInFailures(user.email, address);
  }
  const problem =
    newPassword && newPassword === currentPassword && !fields.currentPassword
      ? "Choose a password different from the current one."
      : await passwordProblem(newPassword, [user.email, user.name ?? ""]);
  if (problem) fields.newPassword = problem;
  if (!fields.newPassword && confirmPassword !== newPassword) fields.confirmPassword = "This does not match the new password.";
  if (Object.keys(fields).length > 0) return { status: "error", fields };

  await setPassword(user.id, newPassword, keepHandle);
  return { status: "saved" };
}
