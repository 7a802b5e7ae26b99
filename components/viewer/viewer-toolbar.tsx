"use client";

import { Box, Camera, Egg, Ellipsis, Grid3x3, Layers, Rotate3d, Ruler, Video } from "lucide-react";
import { Select as SelectPrimitive } from "radix-ui";
import { useLayoutEffect, useRef, useState } from "react";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { IconButton } from "@/components/ui/icon-button";
import { Select, SelectContent, SelectItem } from "@/components/ui/select";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { isMaterialView, MATERIAL_VIEWS, type MaterialView } from "@/lib/viewer/material-views";
import { toolsThatFit } from "@/lib/viewer/toolbar-fit";
import { checkerStyle } from "./checker";
import { BACKDROP_COLORS, type Backdrop } from "./model-scene";

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

type Tool =
  | {
      kind: "button";
      key: string;
      label: string;
      hint?: string;
      icon: React.ReactNode;
      /** A toggle's state (aria-pressed); absent for an action. */
      pressed?: boolean;
      disabled?: boolean;
      onClick(): void;
      attrs?: Record<`data-${string}`, string>;
    }
  | { kind: "maps"; key: "maps" };

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
        {shown.map((tool) => (tool.kind === "maps" ? <MapsSelect key={tool.key} {...p} /> : <ToolButton key={tool.key} tool={tool} />))}
        {more.length > 0 ? <MoreTools tools={more} {...p} /> : null}
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

const mapLabel = (view: MaterialView) => MATERIAL_VIEWS.find((v) => v.value === view)?.label ?? view;

/** One map on its own, or a UV checker: a select named "Maps" whose trigger is an icon. */
function MapsSelect({ materialView, onMaterialView }: ViewerToolbarProps) {
  return (
    <Select
      value={materialView}
      onValueChange={(value) => {
        if (isMaterialView(value)) onMaterialView(value);
      }}
    >
      <Tooltip>
        <TooltipTrigger asChild>
          <SelectPrimitive.Trigger
            aria-label={`Maps: ${mapLabel(materialView)}`}
            data-value={materialView}
            className={cn(buttonVariants({ variant: "ghost", size: "icon" }), materialView !== "lit" && "bg-primary/15 text-primary")}
          >
            <Layers aria-hidden />
          </SelectPrimitive.Trigger>
        </TooltipTrigger>
        <TooltipContent side="bottom">Maps: {mapLabel(materialView)}. Show one map on its own, or a UV checker</TooltipContent>
      </Tooltip>
      <SelectContent position="popper" align="start" className="w-auto">
        {MATERIAL_VIEWS.map((v) => (
          <SelectItem key={v.value} value={v.value}>
            {v.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** The tools that did not fit, as menu items: toggles are checkbox items, Maps a radio group. */
function MoreTools({ tools, ...p }: { tools: Tool[] } & ViewerToolbarProps) {
  return (
    <DropdownMenu>
      <Tooltip>
        <TooltipTrigger asChild>
          <DropdownMenuTrigger className={buttonVariants({ variant: "ghost", size: "icon" })} aria-label="More viewer tools">
            <Ellipsis aria-hidden />
          </DropdownMenuTrigger>
        </TooltipTrigger>
        <TooltipContent side="bottom">More viewer tools</TooltipContent>
      </Tooltip>
      <DropdownMenuContent align="end">
        {tools.map((tool) =>
          tool.kind === "maps" ? (
            <div key={tool.key}>
              <DropdownMenuSeparator />
              <DropdownMenuLabel>Maps</DropdownMenuLabel>
              <DropdownMenuRadioGroup
                value={p.materialView}
                onValueChange={(value) => {
                  if (isMaterialView(value)) p.onMaterialView(value);
                }}
              >
                {MATERIAL_VIEWS.map((v) => (
                  <DropdownMenuRadioItem key={v.value} value={v.value}>
                    {v.label}
                  </DropdownMenuRadioItem>
                ))}
              </DropdownMenuRadioGroup>
              <DropdownMenuSeparator />
            </div>
          ) : tool.pressed !== undefined ? (
            <DropdownMenuCheckboxItem
              key={tool.key}
              checked={tool.pressed}
              disabled={tool.disabled}
              onCheckedChange={tool.onClick}
              onSelect={(e) => e.preventDefault()}
            >
              {tool.label}
            </DropdownMenuCheckboxItem>
          ) : (
            <DropdownMenuItem key={tool.key} disabled={tool.disabled} onSelect={tool.onClick} {...tool.attrs}>
              <span className="flex size-4 items-center justify-center">{tool.icon}</span>
              {tool.label}
            </DropdownMenuItem>
          ),
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
