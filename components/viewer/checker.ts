import type { CSSProperties } from "react";

/** The grey checkerboard that stands for "transparent" behind the model and in the swatch. */
export function checkerStyle(cell = 12): CSSProperties {
  return {
    backgroundColor: "#d4d4d8",
    backgroundImage: "conic-gradient(#a1a1aa 25%, transparent 0 50%, #a1a1aa 0 75%, transparent 0)",
    backgroundSize: `${cell * 2}px ${cell * 2}px`,
  };
}
