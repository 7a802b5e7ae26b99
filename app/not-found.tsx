import Link from "next/link";
import { connection } from "next/server";

/**
 * The 404 page for any path. Rendered for each request, not prerendered: a prerendered page's
 * scripts carry no nonce, so under the pages' policy (proxy.ts) they would all be refused.
 */
export default async function NotFound() {
  await connection();
  return (
    <main className="mx-auto max-w-md px-6 py-24 text-center">
      <h1 className="text-lg font-medium">This page could not be found.</h1>
      <p className="mt-4 text-sm">
        <Link href="/" className="text-primary hover:underline">
          Back to the studio
        </Link>
      </p>
    </main>
  );
}
