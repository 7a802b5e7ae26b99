"use client";

import { RadioGroup } from "radix-ui";
import { useId } from "react";
import { cn } from "./cn";

export interface SegmentedOption<T extends string> {
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
 * One choice among a few, all in view: a row of segments (radio buttons underneath, so arrow
 * keys move the choice). Options with a `detail` render as small cards; a card is named by its
 * label alone and described by its detail, so "v1.5" stays "v1.5" to a screen reader (and to
 * `getByRole("radio", { name })`) whatever its price line says.
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
  // The arrow keys move focus and the choice together, at once. Radix moves focus a tick after
  // the keydown and checks the option only if the key is still down by then: with a quick tap,
  // a busy page or two presses in a row, focus moved and the choice stayed behind.
  const arrowChoose = (event: React.KeyboardEvent<HTMLButtonElement>, from: T) => {
    const delta = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (delta === undefined || disabled || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const open = options.filter((o) => !o.disabled);
    const next = open[(open.findIndex((o) => o.value === from) + delta + open.length) % open.length];
    if (!next) return;
    event.preventDefault(); // Radix's own move (and the page's scroll) are not wanted
    event.currentTarget.parentElement?.querySelector<HTMLElement>(`[role="radio"][value="${CSS.escape(next.value)}"]`)?.focus();
    if (next.value !== value) onValueChange(next.value);
  };
  return (
    <RadioGroup.Root
      id={id}
      aria-label={label}
      name={name}
      value={value}
      disabled={disabled}
      onValueChange={(next) => {
        const option = options.find((o) => o.value === next);
        if (option) onValueChange(option.value);
      }}
      // relative: Radix puts a hidden, absolutely placed input beside each radio for forms; without a
      // positioned box here they were placed against the page and stretched it (a scrolling form column).
      className={cn(
        "relative",
        cards ? "grid auto-cols-fr grid-flow-col gap-2" : "inline-flex w-full rounded-md border border-input bg-muted p-0.5",
        className,
      )}
      {...aria}
    >
      {options.map((option, i) => (
        <RadioGroup.Item
          key={option.value}
          value={option.value}
          disabled={option.disabled}
          onKeyDown={(event) => arrowChoose(event, option.value)}
          aria-labelledby={option.detail !== undefined ? `${ids}-${i}-label` : undefined}
          aria-describedby={option.detail !== undefined ? `${ids}-${i}-detail` : undefined}
          className={cn(
            "min-h-8 flex-1 text-sm font-medium outline-none transition-colors focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50",
            cards
              ? "flex flex-col items-start gap-0.5 rounded-md border border-input bg-background px-3 py-2 text-left hover:bg-accent data-[state=checked]:border-primary data-[state=checked]:ring-1 data-[state=checked]:ring-primary"
              : "rounded-[calc(var(--radius-md)-2px)] px-3 py-1 text-muted-foreground hover:text-foreground data-[state=checked]:bg-background data-[state=checked]:text-foreground data-[state=checked]:shadow-sm",
          )}
        >
          <span id={`${ids}-${i}-label`}>{option.label}</span>
          {option.detail !== undefined ? (
            <span id={`${ids}-${i}-detail`} className="text-caption font-normal text-muted-foreground">
              {option.detail}
            </span>
          ) : null}
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
