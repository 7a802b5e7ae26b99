"use client";

import { Button, type ButtonProps } from "./button";
import { Tooltip, TooltipContent, TooltipTrigger } from "./tooltip";

export interface IconButtonProps extends Omit<ButtonProps, "children" | "size"> {
  /** What the button does: its accessible name and its tooltip ("Download STL for printing"). */
  label: string;
  /** A lucide icon (or any small SVG). */
  icon: React.ReactNode;
  /** A longer tooltip than the label, e.g. with its keyboard shortcut. */
  hint?: string;
  size?: "icon" | "icon-sm";
  side?: "top" | "bottom" | "left" | "right";
}

/** A square button showing only an icon, named by `label` and explained by a tooltip. */
export function IconButton({ label, icon, hint, size = "icon", variant = "ghost", side = "bottom", ...props }: IconButtonProps) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button aria-label={label} size={size} variant={variant} {...props}>
          {icon}
        </Button>
      </TooltipTrigger>
      <TooltipContent side={side}>{hint ?? label}</TooltipContent>
    </Tooltip>
  );
}
