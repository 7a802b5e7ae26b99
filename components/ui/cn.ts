import { clsx, type ClassValue } from "clsx";
import { extendTailwindMerge } from "tailwind-merge";

// The type scale's sizes (app/globals.css --text-*): unknown to tailwind-merge, which took
// text-caption for a colour and dropped it beside one (a Badge's tone, CardDescription's
// text-muted-foreground), leaving those at the inherited size.
const twMerge = extendTailwindMerge({ extend: { theme: { text: ["caption", "body", "title", "display"] } } });

/** Joins class names, later Tailwind classes winning over earlier ones of the same property. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
