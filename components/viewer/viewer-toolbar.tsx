"use client";

import { Box, Camera, Egg, Ellipsis, Grid3x3, Layers, Rotate3d, Ruler, Video } from "lucide-react";
import { lazy, Suspense, useId, useLayoutEffect, useRef, useState } from "react";
import { cn } from "@/components/ui/cn";
import { IconButton } from "@/components/ui/icon-button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import type { MaterialView } from "@/lib/viewer/material-views";
import { toolsThatFit } from "@/lib/viewer/toolbar-fit";
import { checkerStyle } from "./checker";
import { BACKDROP_COLORS, type Backdrop } from "./model-scene";
import { mapsTrigger, moreToolsClass, type Tool } from "./toolbar-tools";

interface ViewerToolbarProps {
  wireframe: boolean;
  clay: boolean;
  backdrop: Backdrop;
  canScreenshot: boolean;
  materialView: MaterialView;
  onMaterialView(view: MaterialView): void;
  autoRotate: boolean;
  onAutoRotate(): void;
  /** Seconds left of a turntable being recorded, or null. */
  recording: number | null;
  onRecord(): void;
  onWireframe(): void;
  onClay(): void;
  onBackdrop(): void;
  onScreenshot(): void;
  grid: boolean;
  measuring: boolean;
  /** The grid and the measuring tool wait for full detail. */
  canMeasure: boolean;
  onGrid(): void;
  onMeasure(): void;
  /** Where the row sits over the viewer; it uses this box's width and hands what does not fit to its menu. */
  className?: string;
}

const NEXT_BACKDROP: Record<Backdrop, Backdrop> = { dark: "light", light: "transparent", transparent: "dark" };

/** The cycle order of the background button. */
export function nextBackdrop(b: Backdrop): Backdrop {
  return NEXT_BACKDROP[b];
}

const pressedTone = "aria-pressed:bg-primary/15 aria-pressed:text-primary";

/**
 * The viewer's tools as one row of icon buttons with tooltips, over the viewer: what does not fit
 * the width goes in a "More viewer tools" menu, from the end of the row.
 */
export function ViewerToolbar(p: ViewerToolbarProps) {
  const strip = useRef<HTMLDivElement>(null);
  const tools = toolList(p);
  const [fit, setFit] = useState(tools.length);
  useLayoutEffect(() => {
    const el = strip.current;
    if (!el) return;
    const measure = () => setFit(toolsThatFit(el.clientWidth, tools.length));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [tools.length]);
  const shown = tools.slice(0, fit);
  const more = tools.slice(fit);

  return (
    <div ref={strip} className={cn("pointer-events-none flex", p.className)}>
      <div
        role="toolbar"
        aria-label="Viewer"
        className="pointer-events-auto flex items-center gap-0.5 rounded-lg border border-border bg-card/85 p-1 text-foreground shadow-sm backdrop-blur"
      >
        {shown.map((tool) => (tool.kind === "maps" ? <MapsTool key={tool.key} {...p} /> : <ToolButton key={tool.key} tool={tool} />))}
        {more.length > 0 ? <MoreToolsTool tools={more} {...p} /> : null}
      </div>
    </div>
  );
}

function toolList(p: ViewerToolbarProps): Tool[] {
  const recording = p.recording !== null;
  return [
    { kind: "button", key: "wireframe", label: "Wireframe", icon: <Box />, pressed: p.wireframe, onClick: p.onWireframe },
    {
      kind: "button",
      key: "clay",
      label: "Clay",
      hint: "Clay: one matte grey material",
      icon: <Egg />,
      pressed: p.clay,
      onClick: p.onClay,
    },
    {
      kind: "button",
      key: "backdrop",
      label: `Background: ${p.backdrop}`,
      hint: `Background: ${p.backdrop} (next: ${NEXT_BACKDROP[p.backdrop]})`,
      icon: <Swatch backdrop={p.backdrop} />,
      onClick: p.onBackdrop,
      attrs: { "data-backdrop": p.backdrop },
    },
    {
      kind: "button",
      key: "grid",
      label: "Grid",
      hint: "Grid in millimetres",
      icon: <Grid3x3 />,
      pressed: p.grid,
      disabled: !p.canMeasure,
      onClick: p.onGrid,
    },
    {
      kind: "button",
      key: "measure",
      label: "Measure",
      hint: "Measure: click two points on the model",
      icon: <Ruler />,
      pressed: p.measuring,
      disabled: !p.canMeasure,
      onClick: p.onMeasure,
    },
    { kind: "maps", key: "maps" },
    {
      kind: "button",
      key: "screenshot",
      label: "Screenshot",
      hint: "Screenshot (PNG)",
      icon: <Camera />,
      disabled: !p.canScreenshot,
      onClick: p.onScreenshot,
    },
    {
      kind: "button",
      key: "rotate",
      label: "Auto-rotate",
      icon: <Rotate3d />,
      pressed: p.autoRotate,
      disabled: recording,
      onClick: p.onAutoRotate,
    },
    {
      kind: "button",
      key: "record",
      label: recording ? `Recording… ${p.recording} s` : "Record turntable",
      hint: recording ? `Recording… ${p.recording} s` : "Record turntable: a 6-second WebM",
      icon: recording ? <span className="text-caption font-semibold text-destructive tabular-nums">{p.recording}</span> : <Video />,
      disabled: !p.canScreenshot || recording,
      onClick: p.onRecord,
    },
  ];
}

function ToolButton({ tool }: { tool: Extract<Tool, { kind: "button" }> }) {
  return (
    <IconButton
      label={tool.label}
      hint={tool.hint}
      icon={tool.icon}
      aria-pressed={tool.pressed}
      disabled={tool.disabled}
      onClick={tool.onClick}
      className={pressedTone}
      {...tool.attrs}
    />
  );
}

/** The current backdrop as a small swatch (a checker for transparent). */
function Swatch({ backdrop }: { backdrop: Backdrop }) {
  return (
    <span
      aria-hidden
      className="inline-block size-4 rounded-sm border border-foreground/40"
      style={backdrop === "transparent" ? checkerStyle(4) : { backgroundColor: BACKDROP_COLORS[backdrop] }}
    />
  );
}

// The Maps select and the "More viewer tools" menu (Radix's select, menu and their positioning)
// load on first use, not with the viewer: until then each is a plain button of the same name,
// look and place; the first press loads the real one (fetched already on hover or focus) and
// opens it, as components/ui/lazy-menu.tsx does for the page's menus.
const loadMenus = () => import("./toolbar-menus");
const MapsSelect = lazy(() => loadMenus().then((m) => ({ default: m.MapsSelect })));
const MoreTools = lazy(() => loadMenus().then((m) => ({ default: m.MoreTools })));
const preloadMenus = () => void loadMenus();

/** Whether a key on a closed select or menu button opens it (as Radix's triggers do). */
const opensPopup = (key: string) => key === "ArrowDown" || key === "ArrowUp";

/**
 * What a stand-in trigger does until its menu's code is there: a click or an arrow key opens it
 * (`onOpen`, absent while it loads), a hover or focus starts loading it.
 */
const lazyTrigger = (onOpen?: () => void) => ({
  onClick: onOpen,
  onKeyDown: (e: React.KeyboardEvent) => {
    if (onOpen && opensPopup(e.key)) {
      e.preventDefault();
      onOpen();
    }
  },
  onPointerEnter: preloadMenus,
  onFocus: preloadMenus,
});

function MapsTool(p: ViewerToolbarProps) {
  const [opened, setOpened] = useState(false);
  const trigger = mapsTrigger(p.materialView);
  // Named like Radix's: the listbox it will control (mounted only once open, as Radix's is).
  const listbox = useId();
  const placeholder = (onOpen?: () => void) => (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          role="combobox"
          aria-label={trigger.label}
          aria-controls={listbox}
          aria-expanded={false}
          aria-haspopup="listbox"
          data-value={p.materialView}
          className={trigger.className}
          {...lazyTrigger(onOpen)}
        >
          <Layers aria-hidden />
        </button>
      </TooltipTrigger>
      <TooltipContent side="bottom">{trigger.hint}</TooltipContent>
    </Tooltip>
  );
  if (!opened) return placeholder(() => setOpened(true));
  return (
    <Suspense fallback={placeholder()}>
      <MapsSelect materialView={p.materialView} onMaterialView={p.onMaterialView} defaultOpen />
    </Suspense>
  );
}

function MoreToolsTool({ tools, ...p }: { tools: Tool[] } & ViewerToolbarProps) {
  const [opened, setOpened] = useState(false);
  const placeholder = (onOpen?: () => void) => (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          aria-label="More viewer tools"
          aria-haspopup="menu"
          aria-expanded={false}
          className={moreToolsClass}
          {...lazyTrigger(onOpen)}
        >
          <Ellipsis aria-hidden />
        </button>
      </TooltipTrigger>
      <TooltipContent side="bottom">More viewer tools</TooltipContent>
    </Tooltip>
  );
  if (!opened) return placeholder(() => setOpened(true));
  return (
    <Suspense fallback={placeholder()}>
      <MoreTools tools={tools} materialView={p.materialView} onMaterialView={p.onMaterialView} defaultOpen />
    </Suspense>
  );
}
