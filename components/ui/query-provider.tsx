"use client";

import { isServer, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";

function makeQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { staleTime: 2_000, retry: 1 } } });
}

let browserClient: QueryClient | undefined;

/**
 * One query client per browser tab, kept across pages (a task fetched on one page is known on
 * the next), and a fresh one for each server render, so no answer is shared between users.
 */
function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  return (browserClient ??= makeQueryClient());
}

/**
 * TanStack Query for the parts that poll tasks (the task page, the workspace). Not in the
 * studio's frame: a page without such a part loads no query library.
 */
export function QueryProvider({ children }: { children: React.ReactNode }) {
  const [client] = useState(getQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
