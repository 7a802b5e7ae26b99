import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth/auth-form";
import { currentUser, githubEnabled, safeNext } from "@/lib/accounts";
import { githubSignInAction, signInAction } from "../actions";

export const metadata = { title: "Sign in · x3d studio" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  // Only a path on this site is followed (or kept for after the form): lib/accounts/safe-next.
  const next = safeNext((await searchParams).next);
  if (await currentUser()) redirect(next);
  return (
    <>
      <h1 className="mb-5 text-title font-semibold">Sign in</h1>
      <AuthForm mode="sign-in" action={signInAction} next={next} />
      {githubEnabled() && (
        <form action={githubSignInAction} className="mt-4">
          <input type="hidden" name="next" value={next} />
          <button className="flex h-10 w-full items-center justify-center rounded-md border border-input text-sm font-medium hover:bg-accent">
            Sign in with GitHub
          </button>
        </form>
      )}
    </>
  );
}
