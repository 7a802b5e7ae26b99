"use client";

/**
 * Puts the shown task in the address (`?task=<id>`) so a reload shows it again, dropping what
 * the page was opened to fill the form with. No navigation: Next's router follows replaceState.
 */
export function showInAddress(id: string | null): void {
  const url = new URL(window.location.href);
  for (const key of ["again", "from", "upload"]) url.searchParams.delete(key);
  if (id) url.searchParams.set("task", id);
  else url.searchParams.delete("task");
  window.history.replaceState(null, "", url);
}
