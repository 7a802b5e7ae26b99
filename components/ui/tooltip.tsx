"use client";

import { Slot } from "./slot";
import { createContext, useCallback, useContext, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { cn } from "./cn";
import { placeTooltip, type Side } from "./tooltip-place";

/*
 * The design system's one primitive written here rather than taken from Radix. Radix's tooltip
 * positions with floating-ui and closes through its dismissable layer: about 21 kB of compressed
 * JavaScript in the first load of every page with an icon button, for a label. This one keeps
 * Radix's behaviour where an artist meets it:
 * - it opens after a hover of 300 ms, at once when another tooltip closed less than 300 ms ago,
 *   on keyboard focus (not on a click's focus), and never on touch;
 * - the pointer can move onto the label without closing it (WCAG 1.4.13, hoverable);
 * - Escape, a press, leaving, blur and scrolling the trigger away close it;
 * - while open the trigger is described by it (aria-describedby), role="tooltip";
 * - it sits on the asked side, flips when that side has no room, and stays on screen.
 * The API is the shadcn/ui one: <Tooltip><TooltipTrigger asChild>…</TooltipTrigger><TooltipContent side>…</TooltipContent></Tooltip>.
 */

const OPEN_DELAY_MS = 300;
const CLOSE_DELAY_MS = 100;
/** Within this time of one tooltip closing, the next opens without the delay (moving along a toolbar). */
const SKIP_DELAY_MS = 300;

let lastClosedAt = -Infinity;

interface TooltipState {
  open: boolean;
  contentId: string;
  trigger: React.RefObject<HTMLElement | null>;
  setTrigger(node: HTMLElement | null): void;
  /** Opens now, or after the hover delay. */
  show(delayed: boolean): void;
  /** Closes now, or after a short delay the pointer can cross to the label in. */
  hide(delayed: boolean): void;
}

const TooltipContext = createContext<TooltipState | null>(null);

function useTooltip(part: string): TooltipState {
  const state = useContext(TooltipContext);
  if (!state) throw new Error(`<${part}> must be inside <Tooltip>`);
  return state;
}

export function Tooltip({ children }: { children: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const contentId = useId();
  const trigger = useRef<HTMLElement | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const clear = () => clearTimeout(timer.current);
  const close = useCallback(() => {
    clearTimeout(timer.current);
    setOpen((was) => {
      if (was) lastClosedAt = performance.now();
      return false;
    });
  }, []);
  const show = useCallback((delayed: boolean) => {
    clearTimeout(timer.current);
    if (!delayed || performance.now() - lastClosedAt < SKIP_DELAY_MS) setOpen(true);
    else timer.current = setTimeout(() => setOpen(true), OPEN_DELAY_MS);
  }, []);
  const hide = useCallback(
    (delayed: boolean) => {
      clearTimeout(timer.current);
      if (delayed) timer.current = setTimeout(close, CLOSE_DELAY_MS);
      else close();
    },
    [close],
  );
  useEffect(() => clear, []);

  // Open: Escape closes it, and so does scrolling the page under it.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    const onScroll = (event: Event) => {
      if (event.target instanceof Node && event.target.contains(trigger.current)) close();
    };
    document.addEventListener("keydown", onKey);
    window.addEventListener("scroll", onScroll, { capture: true, passive: true });
    return () => {
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("scroll", onScroll, { capture: true });
    };
  }, [open, close]);

  const setTrigger = useCallback((node: HTMLElement | null) => {
    trigger.current = node;
  }, []);
  const value = useMemo(() => ({ open, contentId, trigger, setTrigger, show, hide }), [open, contentId, setTrigger, show, hide]);
  return <TooltipContext.Provider value={value}>{children}</TooltipContext.Provider>;
}

type TriggerProps = Omit<React.ComponentProps<"button">, "ref"> & { asChild?: boolean };

export function TooltipTrigger({ asChild = false, ...props }: TriggerProps) {
  const { open, contentId, setTrigger, show, hide } = useTooltip("TooltipTrigger");
  const Comp = asChild ? Slot : "button";
  return (
    <Comp
      {...props}
      ref={setTrigger}
      aria-describedby={open ? contentId : props["aria-describedby"]}
      onPointerEnter={(event: React.PointerEvent<HTMLButtonElement>) => {
        props.onPointerEnter?.(event);
        if (event.pointerType !== "touch") show(true);
      }}
      onPointerLeave={(event: React.PointerEvent<HTMLButtonElement>) => {
        props.onPointerLeave?.(event);
        hide(true);
      }}
      onPointerDown={(event: React.PointerEvent<HTMLButtonElement>) => {
        props.onPointerDown?.(event);
        hide(false);
      }}
      onFocus={(event: React.FocusEvent<HTMLButtonElement>) => {
        props.onFocus?.(event);
        // Keyboard focus only: a click also focuses the button, and the label would cover what it opened.
        if (event.currentTarget.matches(":focus-visible")) show(false);
      }}
      onBlur={(event: React.FocusEvent<HTMLButtonElement>) => {
        props.onBlur?.(event);
        hide(false);
      }}
      onClick={(event: React.MouseEvent<HTMLButtonElement>) => {
        props.onClick?.(event);
        hide(false);
      }}
    />
  );
}

export function TooltipContent(props: React.ComponentProps<"div"> & { side?: Side; sideOffset?: number }) {
  const tooltip = useTooltip("TooltipContent");
  // Mounted only while open: each opening measures and places afresh.
  return tooltip.open ? <TooltipLabel tooltip={tooltip} {...props} /> : null;
}

function TooltipLabel({
  tooltip: { contentId, trigger, show, hide },
  className,
  side = "top",
  sideOffset = 6,
  children,
  ...props
}: React.ComponentProps<"div"> & { tooltip: TooltipState; side?: Side; sideOffset?: number }) {
  const content = useRef<HTMLDivElement>(null);
  const [placed, setPlaced] = useState<{ x: number; y: number; side: Side } | null>(null);

  useLayoutEffect(() => {
    const place = () => {
      const anchor = trigger.current?.getBoundingClientRect();
      const box = content.current;
      if (!anchor || !box) return;
      setPlaced(
        placeTooltip(anchor, { width: box.offsetWidth, height: box.offsetHeight }, side, sideOffset, {
          width: window.innerWidth,
          height: window.innerHeight,
        }),
      );
    };
    place();
    window.addEventListener("resize", place);
    return () => window.removeEventListener("resize", place);
  }, [side, sideOffset, trigger]);

  return createPortal(
    <div
      ref={content}
      id={contentId}
      role="tooltip"
      data-slot="tooltip"
      data-side={placed?.side ?? side}
      {...props}
      onPointerEnter={() => show(false)}
      onPointerLeave={() => hide(true)}
      style={{
        position: "fixed",
        left: 0,
        top: 0,
        transform: placed ? `translate(${placed.x}px, ${placed.y}px)` : undefined,
        visibility: placed ? undefined : "hidden",
      }}
      className={cn("z-50 w-max max-w-xs rounded-md bg-foreground px-2.5 py-1.5 text-caption text-background shadow-md", className)}
    >
      {children}
    </div>,
    document.body,
  );
}
