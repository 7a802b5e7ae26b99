"use server";

import { currentUser, revokeAllSessions, signOut } from "@/lib/accounts";

/** "Sign out" in the header menu and on the account page: signing out revokes this session (lib/accounts/authjs.ts, events.signOut), so a copied cookie stops too. */
export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/sign-in" });
}

/** "Sign out everywhere": ends the account's sessions in every browser (a lost laptop, a shared computer), then this one's cookie. */
export async function signOutEverywhereAction(): Promise<void> {
  const me = await currentUser();
  if (me) await revokeAllSessions(me.id);
  await signOut({ redirectTo: "/sign-in" });
}
