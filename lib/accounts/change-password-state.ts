/** The fields of the account page's password form, by their form names. */
export type PasswordField = "currentPassword" | "newPassword" | "confirmPassword";

/** What the password form shows after an attempt (app/(studio)/account/actions.ts). */
export type ChangePasswordState =
  { status: "idle" } | { status: "error"; fields: Partial<Record<PasswordField, string>>; message?: string } | { status: "saved" };

/** The fields in the order the form shows them: the focus goes to the first one named in a refusal. */
export const PASSWORD_FIELDS: readonly PasswordField[] = ["currentPassword", "newPassword", "confirmPassword"];
