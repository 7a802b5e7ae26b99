import { clsx, type ClassValue } from "clsx";
import { extendTailwindMerge } from "tailwind-merge";

// The theme's own type scale (app/globals.css): without it tailwind-merge reads `text-caption`
// as a colour and drops it beside a colour class (a Badge's `text-success` lost its size).
const twMerge = extendTailwindMerge({ extend: { theme: { text: ["caption", "body", "title", "display"] } } });

/** Joins class names, later Tailwind classes winning over earlier ones of the same property. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
