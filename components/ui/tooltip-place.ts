export type Side = "top" | "bottom" | "left" | "right";

/** The least gap between a tooltip and the screen's edge. */
export const MARGIN_PX = 4;

/** Where the label goes: on `side` of the trigger unless it does not fit there, clamped to the screen. */
/** The trigger's box on screen (a DOMRect will do). */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}

export function placeTooltip(
  anchor: Box,
  size: { width: number; height: number },
  side: Side,
  offset: number,
  screen: { width: number; height: number },
) {
  const fits: Record<Side, boolean> = {
    top: anchor.top - offset - size.height >= MARGIN_PX,
    bottom: anchor.bottom + offset + size.height <= screen.height - MARGIN_PX,
    left: anchor.left - offset - size.width >= MARGIN_PX,
    right: anchor.right + offset + size.width <= screen.width - MARGIN_PX,
  };
  const opposite: Record<Side, Side> = { top: "bottom", bottom: "top", left: "right", right: "left" };
  const placed = fits[side] || !fits[opposite[side]] ? side : opposite[side];
  const clamp = (v: number, size: number, room: number) => Math.min(Math.max(v, MARGIN_PX), Math.max(MARGIN_PX, room - size - MARGIN_PX));
  const vertical = placed === "top" || placed === "bottom";
  const x = vertical
    ? clamp(anchor.left + anchor.width / 2 - size.width / 2, size.width, screen.width)
    : placed === "left"
      ? anchor.left - offset - size.width
      : anchor.right + offset;
  const y = vertical
    ? placed === "top"
      ? anchor.top - offset - size.height
      : anchor.bottom + offset
    : clamp(anchor.top + anchor.height / 2 - size.height / 2, size.height, screen.height);
  return { x: Math.round(x), y: Math.round(y), side: placed };
}
