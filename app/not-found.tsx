import { FileQuestion } from "lucide-react";
import Link from "@/components/ui/link";
import { connection } from "next/server";

/**
 * The 404 page for any path. Rendered for each request, not prerendered: a prerendered page's
 * scripts carry no nonce, so under the pages' policy (proxy.ts) they would all be refused.
 */
export default async function NotFound() {
  await connection();
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 px-6 text-center">
      <span className="flex size-12 items-center justify-center rounded-xl bg-muted text-muted-foreground">
        <FileQuestion className="size-6" aria-hidden />
      </span>
      <h1 className="text-title font-semibold">This page could not be found.</h1>
      <p className="text-body text-muted-foreground">The link may be old, or the result was deleted.</p>
      <Link
        href="/"
        className="inline-flex h-9 items-center rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground hover:bg-primary/90"
      >
        Back to the studio
      </Link>
    </main>
  );
}
