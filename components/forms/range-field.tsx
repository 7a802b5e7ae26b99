"use client";

import { useId } from "react";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import { Slider } from "@/components/ui/slider";
import { FieldNote } from "./fields";

interface RangeFieldProps {
  /** The field's name: the slider is named "label (unit)", the exact input "label (unit, exact)". */
  label: string;
  unit?: string | undefined;
  /** The form field the value is submitted as. */
  name: string;
  /** The value as typed (a half-typed number is not rewritten under the cursor). */
  text: string;
  onText: (text: string) => void;
  min: number;
  max: number;
  /** The field's granularity: the exact input's step, and the slider's unless `sliderStep` is set. */
  step: number;
  /** A coarser step for the slider, where the field's own would make the arrow keys crawl (faces: 50,000). */
  sliderStep?: number;
  /** The recommended value, marked on the track. */
  mark?: { value: number; label: string } | undefined;
  /** Where the thumb rests while the text is not a number (the field's start). */
  fallback: number;
  /** A value in words, for the track's ends and the slider's spoken value. */
  format: (value: number) => string;
  /** Beside the label, an input for an exact value (true) or the value shown as text (false). */
  exact?: boolean;
  hint?: React.ReactNode;
  error?: string | undefined;
}

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
const decimals = (step: number) => String(step).split(".")[1]?.length ?? 0;

/**
 * A number in a range: a slider with the recommended value marked, and beside the label either
 * a small input for an exact value or the value shown. Both edit one text, submitted as typed by
 * the input (or by a hidden input when there is none), so the server reads what it always read.
 */
export function RangeField({
  label,
  unit,
  name,
  text,
  onText,
  min,
  max,
  step,
  sliderStep,
  mark,
  fallback,
  format,
  exact = true,
  hint,
  error,
}: RangeFieldProps) {
  const id = useId();
  const typed = text.trim() === "" ? Number.NaN : Number(text);
  const value = Number.isFinite(typed) ? clamp(typed, min, max) : fallback;
  const spoken = unit ? `${label} (${unit})` : label;
  // Wide enough for the longest value the field takes, in digits.
  const width = `${Math.max(String(max).length, String(min).length) + decimals(step) + 3}ch`;
  return (
    <div>
      <div className="mb-2 flex min-h-8 items-center justify-between gap-3">
        <span id={`${id}-label`} className="text-sm leading-none font-medium">
          {label}
        </span>
        <span className="flex items-center gap-1.5">
          {exact ? (
            // The unit sits inside the box, so boxes with and without one line up on the right.
            <span className="relative">
              <Input
                type="number"
                inputMode="decimal"
                name={name}
                value={text}
                min={min}
                max={max}
                step={step}
                aria-label={unit ? `${label} (${unit}, exact)` : `${label} (exact)`}
                aria-describedby={`${id}-note`}
                aria-invalid={!!error}
                onChange={(e) => onText(e.target.value)}
                style={{ width: unit ? `calc(${width} + 1.5rem)` : width }}
                className={cn(
                  "h-8 px-2 text-right tabular-nums [appearance:textfield] [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none",
                  unit && "pr-8",
                )}
              />
              {unit ? (
                <span
                  className="pointer-events-none absolute inset-y-0 right-2.5 flex items-center text-caption text-muted-foreground"
                  aria-hidden
                >
                  {unit}
                </span>
              ) : null}
            </span>
          ) : (
            <>
              <input type="hidden" name={name} value={text} />
              <span className="text-sm font-medium tabular-nums" data-testid={`${name}-value`}>
                {format(value)}
              </span>
              {unit ? <span className="text-caption text-muted-foreground">{unit}</span> : null}
            </>
          )}
        </span>
      </div>
      <Slider
        label={spoken}
        value={value}
        min={min}
        max={max}
        step={sliderStep ?? step}
        mark={mark}
        valueText={unit ? `${format(value)} ${unit}` : format(value)}
        onValueChange={(v) => onText(String(v))}
      />
      <div className="mt-1 flex justify-between text-caption text-muted-foreground tabular-nums" aria-hidden>
        <span>{format(min)}</span>
        <span>{format(max)}</span>
      </div>
      <FieldNote id={`${id}-note`} hint={hint} error={error} />
    </div>
  );
}
