import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { mapLabel, type MaterialView } from "@/lib/viewer/material-views";

/** One of the viewer toolbar's tools: a button, or the Maps select. */
export type Tool =
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

/** The Maps tool's name, tooltip and look, the same before and after its select has loaded. */
export const mapsTrigger = (view: MaterialView) => ({
  label: `Maps: ${mapLabel(view)}`,
  hint: `Maps: ${mapLabel(view)}. Show one map on its own, or a UV checker`,
  className: cn(buttonVariants({ variant: "ghost", size: "icon" }), view !== "lit" && "bg-primary/15 text-primary"),
});

/** The "More viewer tools" button's look, the same before and after its menu has loaded. */
export const moreToolsClass = buttonVariants({ variant: "ghost", size: "icon" });
