import { redirect } from "next/navigation";
import { AuthForm } from "@/components/auth/auth-form";
import { currentUser } from "@/lib/session";
import { signUpAction } from "../actions";

export const metadata = { title: "Create an account · x3d studio" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = (await searchParams).next ?? "/";
  if (await currentUser()) redirect("/");
  return (
    <>
      <h1 className="mb-6 text-lg font-medium">Create an account</h1>
      <AuthForm mode="sign-up" action={signUpAction} next={next} />
    </>
  );
}
