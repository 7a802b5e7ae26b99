"use client";

import { useIsBrowser } from "@/components/tasks/use-clock";

/**
 * A button that works only with the page's scripts, shut (disabled) until the page is
 * hydrated: a click on the server-rendered button would do nothing, and a submit button would
 * let the browser send its form itself (a GET of the page with the fields in its address).
 */
export function ScriptButton({ disabled, ...props }: React.ComponentProps<"button">) {
  const browser = useIsBrowser();
  return <button {...props} disabled={!!disabled || !browser} />;
}
