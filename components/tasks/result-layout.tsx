"use client";

import { PanelRightClose, PanelRightOpen } from "lucide-react";
import { Suspense, useId, useState } from "react";
import { cn } from "@/components/ui/cn";
import { IconButton } from "@/components/ui/icon-button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useIsBrowser } from "./use-clock";

export interface ResultTab {
  value: string;
  label: string;
  content: React.ReactNode;
  /**
   * Rendered the first time the tab is shown, then kept (its code can load then: see `preload`).
   * Tabs the viewer draws into are rendered from the start.
   */
  whenOpened?: boolean;
  /** Fetches the tab's code ahead of a click, on hover or focus of its trigger. */
  preload?: () => void;
}

interface Props {
  /** The title row's left side: what the result is, its state and time. */
  title: React.ReactNode;
  /** The title row's buttons (download, compare, delete). */
  actions: React.ReactNode;
  /** A line under the title row (a passing problem), or nothing. */
  notice?: React.ReactNode;
  /** The viewer's place: the viewer, or the task's progress or failure. */
  stage: React.ReactNode;
  tabs: readonly ResultTab[];
  tab: string;
  onTab(value: string): void;
  /** Under the studio's 56 px header (the task page), or on the whole screen (the share page). */
  underHeader: boolean;
}

/**
 * A result, viewer first: a slim title row, then the viewer filling the rest of the screen with
 * a collapsible side panel of tabs on its right; under 1024 px the viewer comes first and the tabs
 * follow it. The tabs stay mounted (hidden when not chosen): what the viewer draws into them and
 * what the artist typed there outlive a change of tab. A tab marked `whenOpened` is rendered
 * from its first showing, so its code is no part of the page's first load.
 */
export function ResultLayout({ title, actions, notice, stage, tabs, tab, onTab, underHeader }: Props) {
  const [panelOpen, setPanelOpen] = useState(true);
  const panelId = useId();
  // A tab chosen before the page's scripts run would be lost: the tabs wait for them, as ScriptButton does.
  const browser = useIsBrowser();
  // The tabs shown so far: a `whenOpened` tab renders from its first showing on, and stays; in the
  // browser only, so its code is fetched then rather than streamed into the server's answer.
  const opened = useOpenedTabs(tab);
  return (
    <div className={cn("flex flex-col lg:overflow-hidden", underHeader ? "lg:h-[calc(100dvh-var(--spacing-header))]" : "lg:h-dvh")}>
      <div className="flex min-h-14 shrink-0 items-center gap-2 border-b border-border px-3 py-2 sm:px-4">
        <div className="min-w-0 flex-1">{title}</div>
        <div className="flex shrink-0 items-center gap-1">
          {actions}
          <IconButton
            className="hidden lg:inline-flex"
            label={panelOpen ? "Hide side panel" : "Show side panel"}
            icon={panelOpen ? <PanelRightClose /> : <PanelRightOpen />}
            aria-expanded={panelOpen}
            aria-controls={panelId}
            onClick={() => setPanelOpen((open) => !open)}
          />
        </div>
      </div>
      {notice}
      <div className="flex min-h-0 flex-1 flex-col lg:flex-row">
        <div data-testid="result-stage" className="relative h-[62dvh] min-h-80 shrink-0 bg-viewer lg:h-auto lg:min-h-0 lg:flex-1 lg:shrink">
          <div className="absolute inset-0">{stage}</div>
        </div>
        <aside
          id={panelId}
          aria-label="About this result"
          className={cn(
            "border-t border-border bg-background lg:w-panel lg:shrink-0 lg:overflow-y-auto lg:border-t-0 lg:border-l",
            !panelOpen && "lg:hidden",
          )}
        >
          <Tabs value={tab} onValueChange={onTab} className="gap-0">
            <div className={cn("sticky z-10 bg-background px-4 pt-3 pb-2 lg:top-0", underHeader ? "top-header" : "top-0")}>
              <TabsList aria-label="Panels">
                {tabs.map((t) => (
                  <TabsTrigger
                    key={t.value}
                    value={t.value}
                    disabled={!browser}
                    className="px-2"
                    onPointerEnter={t.preload}
                    onFocus={t.preload}
                  >
                    {t.label}
                  </TabsTrigger>
                ))}
              </TabsList>
            </div>
            {tabs.map((t) => (
              <TabsContent key={t.value} value={t.value} forceMount className="px-4 pt-2 pb-6 data-[state=inactive]:hidden">
                {!t.whenOpened ? (
                  t.content
                ) : browser && opened.includes(t.value) ? (
                  <Suspense fallback={<p className="text-body text-muted-foreground">Loading…</p>}>{t.content}</Suspense>
                ) : null}
              </TabsContent>
            ))}
          </Tabs>
        </aside>
      </div>
    </div>
  );
}

/**
 * The tabs shown so far, `tab` (the one shown now) included. The pages hand the viewer a tab's
 * box only once the tab has been shown, so the tool drawn there (the print panel, the part list)
 * loads when first opened.
 */
export function useOpenedTabs(tab: string): readonly string[] {
  const [opened, setOpened] = useState<readonly string[]>([tab]);
  if (!opened.includes(tab)) setOpened([...opened, tab]);
  return opened;
}

/**
 * A tab's box the viewer draws into (its print panel, its part list), and what the tab says while
 * nothing is drawn there: the note shows only while the box is empty.
 */
export function ViewerPanelSlot({ slotRef, note }: { slotRef: (el: HTMLDivElement | null) => void; note: React.ReactNode }) {
  return (
    <>
      <div ref={slotRef} className="peer empty:hidden" />
      <p className="hidden text-body text-muted-foreground peer-empty:block">{note}</p>
    </>
  );
}
