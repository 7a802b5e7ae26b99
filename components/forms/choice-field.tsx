"use client";

import { useId } from "react";
import { cn } from "@/components/ui/cn";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { FieldNote } from "./fields";

/** One choice of a field: its wire value, its words, and optionally a second line and a refusal. */
export interface Choice<T extends string | number> {
  value: T;
  label: string;
  /** A second line (the option shows as a card): a price, what the choice means, why it is shut. */
  detail?: string | undefined;
  disabled?: boolean | undefined;
}

interface ChoiceFieldProps<T extends string | number> {
  /** The visible label and the group's accessible name. */
  label: string;
  /** Names the group without showing the label (the section's heading already says it). */
  hideLabel?: boolean;
  /** The form field the choice is submitted as (a hidden input with the value as text). */
  name: string;
  value: T;
  options: readonly Choice<T>[];
  onChange: (value: T) => void;
  /** Lays the options out in a grid of this many columns instead of one row. */
  columns?: 2 | 3;
  hint?: React.ReactNode;
  error?: string | undefined;
}

const GRID = { 2: "grid grid-flow-row grid-cols-2 gap-2", 3: "grid grid-flow-row grid-cols-3 gap-2" } as const;
const ROWS = { 2: "grid grid-cols-2 gap-0.5", 3: "grid grid-cols-3 gap-0.5" } as const;

/**
 * A short exclusive choice, all options in view (a segmented control: radio buttons, arrow keys
 * move the choice). It submits through its own hidden input, so the wire value is exactly
 * `String(value)`, as the select it replaces sent.
 */
export function ChoiceField<T extends string | number>({
  label,
  hideLabel = false,
  name,
  value,
  options,
  onChange,
  columns,
  hint,
  error,
}: ChoiceFieldProps<T>) {
  const id = useId();
  const cards = options.some((o) => o.detail !== undefined);
  return (
    <div>
      <input type="hidden" name={name} value={String(value)} />
      {/* The group is named `label` itself; the words above it are for the eye only (not read twice). */}
      {!hideLabel && (
        <span aria-hidden className="mb-1.5 block text-sm leading-none font-medium">
          {label}
        </span>
      )}
      <SegmentedControl
        label={label}
        value={String(value)}
        options={options.map((o) => ({ value: String(o.value), label: o.label, detail: o.detail, disabled: o.disabled }))}
        onValueChange={(picked) => {
          const option = options.find((o) => String(o.value) === picked);
          if (option) onChange(option.value);
        }}
        className={cn(columns && (cards ? GRID[columns] : ROWS[columns]))}
        aria-describedby={`${id}-note`}
        aria-invalid={error ? true : undefined}
      />
      <FieldNote id={`${id}-note`} hint={hint} error={error} />
    </div>
  );
}
