"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { currentAdmin, findUserById, isAdmin, setDisabled } from "@/lib/accounts";
import { setAllowance } from "@/lib/credits/ledger";
import { MAX_ALLOWANCE, type AdminActionState } from "@/lib/admin/limits";

const allowanceSchema = z.object({
  userId: z.string().min(1),
  allowance: z.coerce
    .number({ error: `Allowance: enter a whole number of credits from 0 to ${MAX_ALLOWANCE.toLocaleString("en")}.` })
    .int(`Allowance: enter a whole number of credits from 0 to ${MAX_ALLOWANCE.toLocaleString("en")}.`)
    .min(0, "Allowance: it cannot be below 0.")
    .max(MAX_ALLOWANCE, `Allowance: at most ${MAX_ALLOWANCE.toLocaleString("en")} credits.`),
});

/** Every admin action asks again: the page may be stale, the role may have changed since. */
const notAllowed: AdminActionState = { status: "error", message: "Only admins can do this." };

export async function setAllowanceAction(_: AdminActionState, form: FormData): Promise<AdminActionState> {
  const admin = await currentAdmin();
  if (!admin) return notAllowed;
  const raw = String(form.get("allowance") ?? "").trim();
  const parsed = allowanceSchema.safeParse({ userId: form.get("userId"), allowance: raw === "" ? Number.NaN : raw });
  if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? "Check the allowance." };
  const user = await findUserById(parsed.data.userId);
  if (!user) return { status: "error", message: "No such account." };
  const credits = await setAllowance(admin.id, user.id, parsed.data.allowance);
  revalidatePath("/admin");
  return { status: "ok", message: `${user.email}: allowance ${credits.allowance}, ${credits.remaining} left.` };
}

export async function setDisabledAction(_: AdminActionState, form: FormData): Promise<AdminActionState> {
  const admin = await currentAdmin();
  if (!admin) return notAllowed;
  const user = await findUserById(String(form.get("userId") ?? ""));
  if (!user) return { status: "error", message: "No such account." };
  const disable = form.get("disable") === "1";
  if (disable && (await isAdmin(user))) return { status: "error", message: `${user.email} is an admin, and admins cannot be disabled.` };
  await setDisabled(user.id, disable);
  revalidatePath("/admin");
  return { status: "ok", message: disable ? `${user.email} is disabled and signed out.` : `${user.email} can sign in again.` };
}
