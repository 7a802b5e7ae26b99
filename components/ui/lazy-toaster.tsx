"use client";

import { lazy, Suspense, useSyncExternalStore } from "react";
import { shownToasts, subscribe } from "./toast";

const Toaster = lazy(() => import("./toaster"));

/** Draws toasts once there is one: the toast code is not part of any page's first load. */
export function LazyToaster() {
  const any = useSyncExternalStore(
    subscribe,
    () => shownToasts().length > 0,
    () => false,
  );
  return any ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
