"use client";

import { cn } from "./cn";

interface SliderProps extends Omit<React.ComponentProps<"input">, "type" | "value" | "defaultValue" | "onChange" | "min" | "max" | "step"> {
  value: number;
  onValueChange(value: number): void;
  min?: number;
  max?: number;
  step?: number;
  /** A value to mark on the track (the recommended one), with its name. */
  mark?: { value: number; label: string };
  /** The thumb's accessible name. */
  label: string;
  /** How the value is read out ("500,000 faces"). */
  valueText?: string;
}

/** The thumb's width in px (size-5): a native range keeps the thumb inside the input, so its centre travels from half a thumb in to half a thumb short of the end. */
const THUMB_PX = 20;

const decimals = (step: number) => String(step).split(".")[1]?.length ?? 0;

/** The arrow keys' direction, for values off the slider's steps. */
const ARROWS: Partial<Record<string, 1 | -1>> = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 };

// The input draws only its thumb, once per engine (Tailwind needs each class written out): its own
// track is transparent, so the drawn track, its fill and the mark lie under the thumb.
const INPUT = [
  "relative m-0 h-6 w-full appearance-none bg-transparent outline-none disabled:cursor-not-allowed",
  "[&::-webkit-slider-runnable-track]:h-5 [&::-webkit-slider-runnable-track]:bg-transparent [&::-moz-range-track]:bg-transparent",
  "[&::-webkit-slider-thumb]:box-border [&::-webkit-slider-thumb]:size-5 [&::-webkit-slider-thumb]:appearance-none",
  "[&::-webkit-slider-thumb]:rounded-full [&::-webkit-slider-thumb]:border-2 [&::-webkit-slider-thumb]:border-solid",
  "[&::-webkit-slider-thumb]:border-primary [&::-webkit-slider-thumb]:bg-background [&::-webkit-slider-thumb]:shadow-sm",
  "[&::-webkit-slider-thumb]:transition-[box-shadow] [&::-webkit-slider-thumb]:hover:ring-4 [&::-webkit-slider-thumb]:hover:ring-ring/30",
  "focus-visible:[&::-webkit-slider-thumb]:ring-4 focus-visible:[&::-webkit-slider-thumb]:ring-ring/50",
  "[&::-moz-range-thumb]:box-border [&::-moz-range-thumb]:size-5 [&::-moz-range-thumb]:appearance-none",
  "[&::-moz-range-thumb]:rounded-full [&::-moz-range-thumb]:border-2 [&::-moz-range-thumb]:border-solid",
  "[&::-moz-range-thumb]:border-primary [&::-moz-range-thumb]:bg-background [&::-moz-range-thumb]:shadow-sm",
  "[&::-moz-range-thumb]:transition-[box-shadow] [&::-moz-range-thumb]:hover:ring-4 [&::-moz-range-thumb]:hover:ring-ring/30",
  "focus-visible:[&::-moz-range-thumb]:ring-4 focus-visible:[&::-moz-range-thumb]:ring-ring/50",
].join(" ");

/**
 * A number picked along a track; `mark` shows where the recommended value sits. A native range
 * input: the keyboard (arrows, Page Up/Down, Home/End), pointer and the slider role are the platform's.
 */
export function Slider({ className, value, onValueChange, mark, label, valueText, min = 0, max = 100, step = 1, ...props }: SliderProps) {
  // Where the thumb's centre sits at `v`, so the thumb covers the mark exactly at the marked value.
  const at = (v: number) => {
    const share = (Math.min(max, Math.max(min, v)) - min) / (max - min || 1);
    return `calc(${share * 100}% + ${(0.5 - share) * THUMB_PX}px)`;
  };
  // A value typed in a field's exact input can lie between the slider's steps (1,234,567 faces on a
  // 50,000 grid). The platform rounds it to the nearest step and then moves (ArrowRight: 1,300,000);
  // an arrow goes to the neighbouring step instead (1,250,000), as the arrows did before.
  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    const direction = ARROWS[event.key];
    const steps = (value - min) / step;
    if (direction === undefined || Math.abs(steps - Math.round(steps)) < 1e-9 || props.disabled) return;
    event.preventDefault();
    const next = min + (direction > 0 ? Math.ceil(steps) : Math.floor(steps)) * step;
    onValueChange(Number(Math.min(max, Math.max(min, next)).toFixed(decimals(step))));
  };
  return (
    <div data-slot="slider" className={cn("relative flex h-6 w-full items-center has-disabled:opacity-50", className)}>
      <span data-slot="slider-track" aria-hidden className="absolute inset-x-0 h-1.5 overflow-hidden rounded-full bg-muted">
        <span data-slot="slider-range" className="absolute inset-y-0 left-0 bg-primary" style={{ width: at(value) }} />
      </span>
      {mark && mark.value >= min && mark.value <= max ? (
        <span
          data-testid="slider-mark"
          title={mark.label}
          aria-hidden
          className="pointer-events-none absolute top-0 h-6 w-0.5 -translate-x-1/2 rounded bg-foreground/50"
          style={{ left: at(mark.value) }}
        />
      ) : null}
      <input
        type="range"
        aria-label={label}
        aria-valuetext={valueText}
        // The field's own value, which may lie between steps: the platform would report it rounded.
        aria-valuenow={value}
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(event) => onValueChange(event.currentTarget.valueAsNumber)}
        onKeyDown={onKeyDown}
        className={INPUT}
        {...props}
      />
    </div>
  );
}
