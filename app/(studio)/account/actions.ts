"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import {
  changePassword,
  currentSessionHandle,
  currentUser,
  requestAddress,
  revokeUserSession,
  type ChangePasswordState,
} from "@/lib/accounts";

const signedOut = { status: "error", fields: {}, message: "You are signed out. Sign in again to change your password." } as const;

/** The account page's password form: lib/accounts/change-password.ts does the work. */
export async function changePasswordAction(_: ChangePasswordState, form: FormData): Promise<ChangePasswordState> {
  const user = await currentUser();
  if (!user) return signedOut;
  const state = await changePassword({
    userId: user.id,
    keepHandle: await currentSessionHandle(),
    address: requestAddress(await headers()),
    fields: {
      currentPassword: form.get("currentPassword"),
      newPassword: form.get("newPassword"),
      confirmPassword: form.get("confirmPassword"),
    },
  });
  // The other sessions are gone from the list.
  if (state.status === "saved") revalidatePath("/account");
  return state;
}

export type SignOutSessionResult = { ok: true } | { ok: false; message: string };

const handleSchema = z.string().regex(/^[0-9a-f]{32}$/);

/** "Sign out" on one of the account's other sessions: ends it at once (only the account's own). */
export async function signOutSessionAction(form: FormData): Promise<SignOutSessionResult> {
  const user = await currentUser();
  if (!user) return { ok: false, message: "You are signed out." };
  const handle = handleSchema.safeParse(form.get("session"));
  const ended = handle.success && (await revokeUserSession(user.id, handle.data));
  revalidatePath("/account");
  return ended ? { ok: true } : { ok: false, message: "That session had already ended." };
}
