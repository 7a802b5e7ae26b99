"use client";

import { LazyToaster } from "./lazy-toaster";

/** What every studio page shares in the browser: the toasts (their code loads with the first one). */
export function Providers({ children }: { children: React.ReactNode }) {
  return (
    <>
      {children}
      <LazyToaster />
    </>
  );
}
