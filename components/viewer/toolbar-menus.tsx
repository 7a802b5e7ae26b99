"use client";

import { Ellipsis, Layers } from "lucide-react";
import { Select as SelectPrimitive } from "radix-ui";
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
import { Select, SelectContent, SelectItem } from "@/components/ui/select";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { isMaterialView, MATERIAL_VIEWS, type MaterialView } from "@/lib/viewer/material-views";
import { mapsTrigger, moreToolsClass, type Tool } from "./toolbar-tools";

/*
 * The viewer toolbar's select and menu, loaded on their first use (viewer-toolbar.tsx shows a
 * plain button of the same name until then, and mounts these opened).
 */

interface MapsProps {
  materialView: MaterialView;
  onMaterialView(view: MaterialView): void;
  defaultOpen?: boolean;
}

/** One map on its own, or a UV checker: a select named "Maps" whose trigger is an icon. */
export function MapsSelect({ materialView, onMaterialView, defaultOpen }: MapsProps) {
  const trigger = mapsTrigger(materialView);
  return (
    <Select
      defaultOpen={defaultOpen}
      value={materialView}
      onValueChange={(value) => {
        if (isMaterialView(value)) onMaterialView(value);
      }}
    >
      <Tooltip>
        <TooltipTrigger asChild>
          <SelectPrimitive.Trigger aria-label={trigger.label} data-value={materialView} className={trigger.className}>
            <Layers aria-hidden />
          </SelectPrimitive.Trigger>
        </TooltipTrigger>
        <TooltipContent side="bottom">{trigger.hint}</TooltipContent>
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
export function MoreTools({ tools, materialView, onMaterialView, defaultOpen }: { tools: Tool[] } & MapsProps) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <Tooltip>
        <TooltipTrigger asChild>
          <DropdownMenuTrigger className={moreToolsClass} aria-label="More viewer tools">
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
                value={materialView}
                onValueChange={(value) => {
                  if (isMaterialView(value)) onMaterialView(value);
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
