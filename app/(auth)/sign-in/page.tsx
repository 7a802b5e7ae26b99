import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth/auth-form";
import { githubEnabled } from "@/lib/auth";
import { safeNext } from "@/lib/auth/safe-next";
import { currentUser } from "@/lib/session";
import { githubSignInAction, signInAction } from "../actions";

export const metadata = { title: "Sign in · x3d studio" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  // Only a path on this site is followed (or kept for after the form): lib/auth/safe-next.
  const next = safeNext((await searchParams).next);
  if (await currentUser()) redirect(next);
  return (
    <>
      <h1 className="mb-6 text-lg font-medium">Sign in</h1>
      <AuthForm mode="sign-in" action={signInAction} next={next} />
      {githubEnabled() && (
        <form action={githubSignInAction} className="mt-4">
          <input type="hidden" name="next" value={next} />
          <button className="w-full rounded-md border border-border px-3 py-2 text-sm hover:bg-card">Sign in with GitHub</button>
        </form>
      )}
    </>
  );
}
