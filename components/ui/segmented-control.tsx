"use client";

import { useId } from "react";
import { cn } from "./cn";

interface SegmentedOption<T extends string> {
  value: T;
  label: React.ReactNode;
  /** A second line under the label (a card), e.g. a price or what the choice means. */
  detail?: React.ReactNode;
  disabled?: boolean;
}

interface SegmentedControlProps<T extends string> {
  /** The group's name, read by screen readers and by `getByRole("radiogroup", { name })`. */
  label: string;
  /** The form field it submits, when inside a form. */
  name?: string;
  value: T;
  options: readonly SegmentedOption<T>[];
  onValueChange(value: T): void;
  className?: string;
  id?: string;
  disabled?: boolean;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}

/**
 * One choice among a few, all in view: a row of segments. Underneath are the browser's own radio
 * buttons (one group by `name`), so the arrow keys move the choice at once, Tab lands on the chosen
 * one, a form submits it, and no script is needed for any of it: Radix's radio group and its
 * roving focus were some 7 kB of every page's first load for what the platform does. Each input
 * covers its segment (transparent, drawing only the focus ring), so a click or tap anywhere on the segment picks it. Options with
 * a `detail` render as small cards; a card is named by its label alone and described by its
 * detail, so "v1.5" stays "v1.5" to a screen reader (and to `getByRole("radio", { name })`)
 * whatever its price line says.
 */
export function SegmentedControl<T extends string>({
  label,
  name,
  value,
  options,
  onValueChange,
  className,
  id,
  disabled,
  ...aria
}: SegmentedControlProps<T>) {
  const cards = options.some((o) => o.detail !== undefined);
  const ids = useId();
  return (
    <div
      role="radiogroup"
      id={id}
      aria-label={label}
      aria-disabled={disabled || undefined}
      className={cn(
        cards ? "grid auto-cols-fr grid-flow-col gap-2" : "inline-flex w-full rounded-md border border-input bg-muted p-0.5",
        className,
      )}
      {...aria}
    >
      {options.map((option, i) => (
        <label
          key={option.value}
          className={cn(
            "relative min-h-8 flex-1 text-sm font-medium transition-colors has-disabled:opacity-50",
            cards
              ? "flex flex-col items-start gap-0.5 rounded-md border border-input bg-background px-3 py-2 text-left hover:bg-accent has-checked:border-primary has-checked:ring-1 has-checked:ring-primary"
              : "flex items-center justify-center rounded-[calc(var(--radius-md)-2px)] px-3 py-1 text-muted-foreground hover:text-foreground has-checked:bg-background has-checked:text-foreground has-checked:shadow-sm",
          )}
        >
          <input
            type="radio"
            name={name ?? ids}
            value={option.value}
            checked={option.value === value}
            disabled={disabled || option.disabled}
            onChange={() => onValueChange(option.value)}
            aria-labelledby={`${ids}-${i}-label`}
            aria-describedby={option.detail !== undefined ? `${ids}-${i}-detail` : undefined}
            className="absolute inset-0 size-full cursor-pointer appearance-none rounded-[inherit] bg-transparent outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed"
          />
          <span id={`${ids}-${i}-label`} data-slot="segment-label">
            {option.label}
          </span>
          {option.detail !== undefined ? (
            <span id={`${ids}-${i}-detail`} className="text-caption font-normal text-muted-foreground">
              {option.detail}
            </span>
          ) : null}
        </label>
      ))}
    </div>
  );
}
