"use client";

import { createContext, use, useId, useState } from "react";
import { cn } from "./cn";

/**
 * Tabs after the WAI-ARIA Authoring Practices' tabs pattern, automatic activation: one tab stop
 * (the chosen tab), the arrow keys move along the tabs (wrapping) and choose the one they reach,
 * Home and End go to the ends. Written here rather than taken from Radix, whose Tabs brought its
 * roving focus, collection, presence and state helpers (about 7 kB compressed) into the first load
 * of the task and share pages for one tab strip.
 */

interface TabsState {
  baseId: string;
  value: string | undefined;
  choose(value: string): void;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabs(part: string): TabsState {
  const state = use(TabsContext);
  if (!state) throw new Error(`${part} must be inside <Tabs>`);
  return state;
}

// Radix's id scheme, so ids stay what they were; useId makes them the same on the server and the client.
const triggerId = (baseId: string, value: string) => `${baseId}-trigger-${value}`;
const contentId = (baseId: string, value: string) => `${baseId}-content-${value}`;

type TabsProps = Omit<React.ComponentProps<"div">, "defaultValue" | "onChange"> & {
  /** The chosen tab, when the caller keeps it; otherwise the tabs keep it, starting at `defaultValue`. */
  value?: string;
  defaultValue?: string;
  onValueChange?(value: string): void;
};

export function Tabs({ value: given, defaultValue, onValueChange, className, ...props }: TabsProps) {
  const baseId = useId();
  const [own, setOwn] = useState(defaultValue);
  const value = given ?? own;
  const choose = (next: string) => {
    if (next === value) return;
    if (given === undefined) setOwn(next);
    onValueChange?.(next);
  };
  return (
    <TabsContext value={{ baseId, value, choose }}>
      <div data-slot="tabs" className={cn("flex flex-col gap-2", className)} {...props} />
    </TabsContext>
  );
}

export function TabsList({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      data-slot="tabs-list"
      className={cn(
        "inline-flex h-9 w-full items-center gap-0.5 overflow-x-auto rounded-md bg-muted p-0.5 text-muted-foreground",
        className,
      )}
      {...props}
    />
  );
}

/** The enabled tabs of `tab`'s own tablist (not of a tablist nested in one of its panels), in order. */
function enabledTabs(tab: HTMLElement): HTMLElement[] {
  const list = tab.closest('[role="tablist"]');
  if (!list) return [tab];
  return [...list.querySelectorAll<HTMLElement>('[role="tab"]:not(:disabled)')].filter((t) => t.closest('[role="tablist"]') === list);
}

/** Where a key moves focus from `tab`, or nothing for a key the tabs leave alone. */
function target(tab: HTMLElement, key: string): HTMLElement | undefined {
  const tabs = enabledTabs(tab);
  const at = tabs.indexOf(tab);
  if (key === "ArrowRight") return tabs[(at + 1) % tabs.length];
  if (key === "ArrowLeft") return tabs[(at - 1 + tabs.length) % tabs.length];
  if (key === "Home") return tabs[0];
  if (key === "End") return tabs[tabs.length - 1];
  return undefined;
}

type TriggerProps = Omit<React.ComponentProps<"button">, "value"> & { value: string };

export function TabsTrigger({ value, className, disabled, onClick, onFocus, onKeyDown, ...props }: TriggerProps) {
  const tabs = useTabs("TabsTrigger");
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={triggerId(tabs.baseId, value)}
      aria-selected={selected}
      aria-controls={contentId(tabs.baseId, value)}
      data-state={selected ? "active" : "inactive"}
      data-slot="tabs-trigger"
      disabled={disabled}
      // A roving tab stop: Tab enters the tablist at the chosen tab and leaves it for the panel.
      tabIndex={selected ? 0 : -1}
      className={cn(
        "inline-flex h-full flex-1 items-center justify-center gap-1.5 rounded-[calc(var(--radius-md)-2px)] px-3 text-sm font-medium whitespace-nowrap outline-none transition-colors",
        "hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50",
        "data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm [&_svg]:size-4",
        className,
      )}
      {...props}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) tabs.choose(value);
      }}
      onFocus={(event) => {
        onFocus?.(event);
        // Automatic activation: a tab that gets focus (an arrow key, Home, End) is chosen.
        if (!event.defaultPrevented) tabs.choose(value);
      }}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        // With a modifier the key is someone else's (the browser's, a screen reader's).
        if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
        const next = target(event.currentTarget, event.key);
        if (!next) return;
        event.preventDefault();
        next.focus();
      }}
    />
  );
}

type ContentProps = React.ComponentProps<"div"> & {
  value: string;
  /** Kept in the page when not chosen (its state outlives a change of tab); data-state says which, the caller's CSS hides it. */
  forceMount?: boolean;
};

export function TabsContent({ value, forceMount = false, className, ...props }: ContentProps) {
  const tabs = useTabs("TabsContent");
  const selected = tabs.value === value;
  if (!selected && !forceMount) return null;
  return (
    <div
      role="tabpanel"
      id={contentId(tabs.baseId, value)}
      aria-labelledby={triggerId(tabs.baseId, value)}
      // Focusable, so Tab from the tabs reaches a panel with nothing focusable in it.
      tabIndex={0}
      data-state={selected ? "active" : "inactive"}
      data-slot="tabs-content"
      className={cn("outline-none", className)}
      {...props}
    />
  );
}
