"use client";

import { Slider as SliderPrimitive } from "radix-ui";
import { cn } from "./cn";

interface SliderProps extends Omit<React.ComponentProps<typeof SliderPrimitive.Root>, "value" | "defaultValue" | "onValueChange"> {
  value: number;
  onValueChange(value: number): void;
  /** A value to mark on the track (the recommended one), with its name. */
  mark?: { value: number; label: string };
  /** The thumb's accessible name. */
  label: string;
  /** How the value is read out ("500,000 faces"). */
  valueText?: string;
}

/** The thumb's width in px (size-5): Radix keeps the thumb inside the track, so its centre travels from half a thumb in to half a thumb short of the end. */
const THUMB_PX = 20;

/** A number picked along a track; `mark` shows where the recommended value sits. */
export function Slider({ className, value, onValueChange, mark, label, valueText, min = 0, max = 100, ...props }: SliderProps) {
  // Where the thumb's centre sits at `v`, so the thumb covers the mark exactly at the marked value.
  const at = (v: number) => {
    const share = (v - min) / (max - min || 1);
    return `calc(${share * 100}% + ${(0.5 - share) * THUMB_PX}px)`;
  };
  return (
    <SliderPrimitive.Root
      data-slot="slider"
      className={cn("relative flex h-6 w-full touch-none items-center select-none data-[disabled]:opacity-50", className)}
      value={[value]}
      min={min}
      max={max}
      onValueChange={(values) => {
        const [next] = values;
        if (next !== undefined) onValueChange(next);
      }}
      {...props}
    >
      <SliderPrimitive.Track data-slot="slider-track" className="relative h-1.5 w-full grow overflow-hidden rounded-full bg-muted">
        <SliderPrimitive.Range className="absolute h-full bg-primary" />
      </SliderPrimitive.Track>
      {mark && mark.value >= min && mark.value <= max ? (
        <span
          data-testid="slider-mark"
          title={mark.label}
          aria-hidden
          className="pointer-events-none absolute top-0 h-6 w-0.5 -translate-x-1/2 rounded bg-foreground/50"
          style={{ left: at(mark.value) }}
        />
      ) : null}
      <SliderPrimitive.Thumb
        aria-label={label}
        aria-valuetext={valueText}
        className="block size-5 rounded-full border-2 border-primary bg-background shadow-sm outline-none transition-[box-shadow] hover:ring-4 hover:ring-ring/30 focus-visible:ring-4 focus-visible:ring-ring/50"
      />
    </SliderPrimitive.Root>
  );
}
