"use client";

import { ChevronDown, Wand2 } from "lucide-react";
import { lazy } from "react";
import { Button } from "@/components/ui/button";
import { LazyMenu } from "@/components/ui/lazy-menu";

const load = () => import("./result-actions-menu");
const ResultActionsMenu = lazy(load);

const MESH_INPUTS = ["glb", "stl", "obj"];

interface Props {
  taskId: string;
  format: string | null;
  hasCover: boolean;
}

/** "Use this result": a menu (loaded on first use) to start a split, a texture or a depth task from it (the forms read `?from=`). */
export function ResultActions({ taskId, format, hasCover }: Props) {
  const from = encodeURIComponent(taskId);
  const actions = [
    // Split and segmentation take GLB, STL or OBJ; texturing takes GLB only.
    format && MESH_INPUTS.includes(format) ? { href: `/new/split?from=${from}`, label: "Split it" } : null,
    format === "glb" ? { href: `/new/texture?from=${from}`, label: "Texture it" } : null,
    hasCover ? { href: `/new/depth?from=${from}`, label: "Depth from its cover" } : null,
  ].filter((a) => a !== null);
  if (actions.length === 0) return null;
  const trigger = (
    // Named the same at every width; the words show from 1024 px, the icon alone below (with its name as a title).
    <Button variant="outline" aria-label="Use this result" title="Use this result" className="max-lg:size-9 max-lg:px-0">
      <Wand2 aria-hidden />
      <span className="hidden lg:inline">Use this result</span>
      <ChevronDown className="hidden opacity-60 lg:inline" aria-hidden />
    </Button>
  );
  return <LazyMenu trigger={trigger} preload={() => void load()} menu={(t) => <ResultActionsMenu trigger={t} actions={actions} />} />;
}
