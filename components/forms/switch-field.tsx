"use client";

import { useId } from "react";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { FieldNote } from "./fields";

interface SwitchFieldProps<T extends string | number> {
  /** The switch's name, beside it. */
  label: string;
  /** The form field it is submitted as. */
  name: string;
  /** The wire values for on and off ([1, 0], ["yes", "no"]). */
  values: readonly [on: T, off: T];
  value: T;
  onChange: (value: T) => void;
  /** One line under the label on what "on" does. */
  hint?: React.ReactNode;
  error?: string | undefined;
}

/**
 * A yes/no option as a switch with its label beside it. It submits through its own hidden
 * input with the field's own wire values (a bare checkbox would send "on" or nothing).
 */
export function SwitchField<T extends string | number>({ label, name, values, value, onChange, hint, error }: SwitchFieldProps<T>) {
  const id = useId();
  const [on, off] = values;
  return (
    <div className="flex items-start justify-between gap-4">
      <input type="hidden" name={name} value={String(value)} />
      <div className="min-w-0 pt-0.5">
        <Label htmlFor={id}>{label}</Label>
        <FieldNote id={`${id}-note`} hint={hint} error={error} />
      </div>
      <Switch
        id={id}
        checked={value === on}
        onCheckedChange={(checked) => onChange(checked ? on : off)}
        aria-describedby={`${id}-note`}
        aria-invalid={error ? true : undefined}
      />
    </div>
  );
}
