import type { Metadata } from "next";
import { ApiReference } from "@/components/docs/api-reference";

export const metadata: Metadata = { title: "API reference · x3d studio" };

/** The Open API's reference, readable without signing in. */
export default function ApiReferencePage() {
  return (
    <main className="mx-auto max-w-5xl px-6 py-8">
      <ApiReference />
    </main>
  );
}
