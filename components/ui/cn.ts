import { clsx, type ClassValue } from "clsx";
import { createTailwindMerge } from "tailwind-merge";

const any = () => true;
const sides = ["", "x", "y", "t", "r", "b", "l"] as const;
const spacing = (prefix: "p" | "m") => Object.fromEntries(sides.map((s) => [`${prefix}${s}`, [{ [`${prefix}${s}`]: [any] }]]));

/**
 * tailwind-merge's merge with the class groups our components override (spacing, sizes, radius,
 * type, colours, layout), not its full default table: that table alone was 8 kB of compressed
 * JavaScript in every page's first load. A class outside these groups is simply kept.
 */
const merge = createTailwindMerge(() => ({
  cacheSize: 500,
  theme: {},
  classGroups: {
    ...spacing("p"),
    ...spacing("m"),
    display: ["block", "inline-block", "inline", "flex", "inline-flex", "grid", "inline-grid", "hidden", "contents"],
    h: [{ h: [any] }],
    w: [{ w: [any] }],
    size: [{ size: [any] }],
    "min-w": [{ "min-w": [any] }],
    "max-w": [{ "max-w": [any] }],
    "min-h": [{ "min-h": [any] }],
    "max-h": [{ "max-h": [any] }],
    gap: [{ gap: [any] }],
    rounded: ["rounded", { rounded: [any] }],
    "font-size": [{ text: ["caption", "body", "title", "display", "xs", "sm", "base", "lg", "xl", "2xl", "3xl"] }],
    "text-alignment": [{ text: ["left", "center", "right", "justify"] }],
    "text-color": [{ text: [any] }],
    "font-weight": [{ font: ["normal", "medium", "semibold", "bold"] }],
    "bg-color": [{ bg: [any] }],
    "border-w": ["border", { border: ["0", "2", "4", "x", "y", "t", "r", "b", "l"] }],
    "border-color": [{ border: [any] }],
    shadow: ["shadow", { shadow: [any] }],
    justify: [{ justify: ["start", "end", "center", "between", "around", "evenly"] }],
    items: [{ items: ["start", "end", "center", "baseline", "stretch"] }],
    "flex-direction": [{ flex: ["row", "col", "row-reverse", "col-reverse"] }],
    overflow: [{ overflow: [any] }],
    position: ["static", "fixed", "absolute", "relative", "sticky"],
  },
  conflictingClassGroups: {
    p: ["px", "py", "pt", "pr", "pb", "pl"],
    px: ["pr", "pl"],
    py: ["pt", "pb"],
    m: ["mx", "my", "mt", "mr", "mb", "ml"],
    mx: ["mr", "ml"],
    my: ["mt", "mb"],
    size: ["w", "h"],
  },
  conflictingClassGroupModifiers: {},
  orderSensitiveModifiers: [],
}));

/** Joins class names, later Tailwind classes winning over earlier ones of the same property. */
export function cn(...inputs: ClassValue[]): string {
  return merge(clsx(inputs));
}
