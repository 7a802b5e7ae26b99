import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth/auth-form";
import { currentUser, safeNext } from "@/lib/accounts";
import { signUpAction } from "../actions";

export const metadata = { title: "Create an account · x3d studio" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = safeNext((await searchParams).next);
  if (await currentUser()) redirect(next);
  return (
    <>
      <h1 className="mb-5 text-title font-semibold">Create an account</h1>
      <AuthForm mode="sign-up" action={signUpAction} next={next} />
    </>
  );
}
