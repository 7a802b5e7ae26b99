"use client";

import { LoaderCircle, LogOut } from "lucide-react";
import { useFormStatus } from "react-dom";
import { Button, type ButtonProps } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";

/** A submit button that shows its form is being answered. */
function PendingSubmit({ children, ...props }: ButtonProps) {
  const { pending } = useFormStatus();
  return (
    <Button type="submit" disabled={pending} {...props}>
      {pending ? <LoaderCircle className="animate-spin" aria-hidden /> : <LogOut aria-hidden />}
      {children}
    </Button>
  );
}

type SignOutSession = (form: FormData) => Promise<{ ok: true } | { ok: false; message: string }>;

/** "Sign out" on another browser's session: it ends at once and leaves the list. */
export function SignOutSessionButton({ handle, device, action }: { handle: string; device: string; action: SignOutSession }) {
  return (
    <form
      action={async (form) => {
        const result = await action(form);
        toast(result.ok ? { title: `Signed out ${device}`, tone: "success" } : { title: result.message, tone: "danger" });
      }}
    >
      <input type="hidden" name="session" value={handle} />
      <PendingSubmit variant="outline" size="sm" aria-label={`Sign out ${device}`}>
        Sign out
      </PendingSubmit>
    </form>
  );
}

/** "Sign out" on this browser's own session: signs out here and goes to the sign-in page. */
export function SignOutHereButton({ action }: { action: () => Promise<void> }) {
  return (
    <form action={action}>
      <PendingSubmit variant="outline" size="sm" aria-label="Sign out of this browser">
        Sign out
      </PendingSubmit>
    </form>
  );
}
