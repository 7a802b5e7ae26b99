"use client";

import { cn } from "./cn";

interface SwitchProps extends Omit<React.ComponentProps<"input">, "type" | "role" | "checked" | "defaultChecked" | "onChange"> {
  checked: boolean;
  onCheckedChange(checked: boolean): void;
}

/**
 * A yes/no setting that takes effect as it is flipped. Name it with a <label htmlFor> or aria-label.
 * A native checkbox in the switch role: Space, a click on its label and `name`/`value` in a form
 * are the platform's; the input is the pill, and the thumb a span that follows its checked state.
 */
export function Switch({ className, checked, onCheckedChange, ...props }: SwitchProps) {
  return (
    <span data-slot="switch" className={cn("relative inline-flex h-6 w-10 shrink-0 has-disabled:opacity-50", className)}>
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        onChange={(event) => onCheckedChange(event.currentTarget.checked)}
        className={cn(
          "peer m-0 size-full appearance-none rounded-full border-2 border-transparent bg-input shadow-xs outline-none transition-colors",
          "checked:bg-primary focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed",
        )}
        {...props}
      />
      <span
        data-slot="switch-thumb"
        aria-hidden
        className="pointer-events-none absolute top-0.5 left-0.5 block size-5 rounded-full bg-background shadow-sm transition-transform peer-checked:translate-x-4"
      />
    </span>
  );
}
