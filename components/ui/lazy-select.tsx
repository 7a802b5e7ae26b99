"use client";

import { ChevronDown } from "lucide-react";
import { lazy, Suspense, useId, useState } from "react";
import { cn } from "./cn";
import { SELECT_TRIGGER_CLASS, type LazySelectProps } from "./select-trigger";

const load = () => import("./lazy-select-content");
const LazySelectContent = lazy(load);

/**
 * The design system's select (Radix's, components/ui/select.tsx) with its code loaded on first
 * use, as the header's menus are: until then the trigger is a plain combobox button showing the
 * chosen option, and Radix's select with its positioning and focus handling (about 20 kB
 * compressed) stays out of the page's first load. Hovering or focusing the trigger fetches it;
 * the first click or Enter, Space or arrow key opens it.
 */
export function LazySelect(props: LazySelectProps) {
  const [opened, setOpened] = useState(false);
  const listId = useId();
  const { value, options, className } = props;
  const aria = {
    id: props.id,
    "aria-label": props["aria-label"],
    "aria-describedby": props["aria-describedby"],
    "aria-invalid": props["aria-invalid"],
  };
  const chosen = options.find((o) => o.value === value);
  const stand = (
    <button
      type="button"
      role="combobox"
      aria-expanded={false}
      aria-controls={listId}
      aria-autocomplete="none"
      data-slot="select-trigger"
      className={cn(SELECT_TRIGGER_CLASS, className)}
      {...aria}
      onPointerEnter={() => void load()}
      onFocus={() => void load()}
      onClick={() => setOpened(true)}
      onKeyDown={(event) => {
        if (["Enter", " ", "ArrowDown", "ArrowUp"].includes(event.key)) {
          event.preventDefault();
          setOpened(true);
        }
      }}
    >
      <span>{chosen?.label}</span>
      <ChevronDown className="size-4 opacity-60" aria-hidden />
    </button>
  );
  if (!opened) return stand;
  return (
    <Suspense fallback={stand}>
      <LazySelectContent {...props} />
    </Suspense>
  );
}
