"use client";

import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "./select";
import type { LazySelectProps } from "./select-trigger";

/** LazySelect once its code is here: Radix's select, open at once (it was asked for); Radix gives the focus back to its
 * own trigger when the list closes. */
export default function LazySelectContent({ value, onValueChange, options, className, ...aria }: LazySelectProps) {
  return (
    <Select value={value} onValueChange={onValueChange} defaultOpen>
      <SelectTrigger className={className} {...aria}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {options.map((o) => (
          <SelectItem key={o.value} value={o.value}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
