"use client";

import { Box, Download } from "lucide-react";
import Link from "@/components/ui/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { TaskInputView } from "@/lib/tasks/model/recorded-inputs";
import type { SharedTaskView } from "@/lib/tasks/model/task-view";
import { isImageFormat } from "@/lib/viewer/formats";
import { printSizing } from "@/lib/viewer/task-sizing";
import { CoverAndOptions } from "./cover-and-options";
import { LocalTime } from "./local-time";
import { ResultLayout, useOpenedTabs, ViewerPanelSlot, type ResultTab } from "./result-layout";
import { ResultViewer, viewerFormatOf } from "./result-viewer";
import { TaskInputs } from "./task-inputs";
import { KIND_LABELS } from "./task-labels";

/** What a share link shows, viewer first: the result, its download, and tabs for printing, parts, options and inputs; read-only. */
export function SharedResult({ view, inputs }: { view: SharedTaskView; inputs: readonly TaskInputView[] }) {
  const format = view.result.format ?? "bin";
  const [printSlot, setPrintSlot] = useState<HTMLElement | null>(null);
  const [partsSlot, setPartsSlot] = useState<HTMLElement | null>(null);
  const [tab, setTab] = useState(view.kind === "split" || view.kind === "segmentation" ? "parts" : "print");
  const opened = useOpenedTabs(tab);
  const shown = viewerFormatOf(format, view.display);
  const measurable = shown !== null && !isImageFormat(shown);

  const tabs: ResultTab[] = [
    {
      value: "print",
      label: "Print",
      content: (
        <ViewerPanelSlot
          slotRef={setPrintSlot}
          note={measurable ? "Loading the model…" : "This result is not a model the viewer can measure."}
        />
      ),
    },
    {
      value: "parts",
      label: "Parts",
      content: <ViewerPanelSlot slotRef={setPartsSlot} note={measurable ? "Loading the model…" : "This result has no parts to show."} />,
    },
    { value: "details", label: "Details", content: <CoverAndOptions coverUrl={view.cover.url} kind={view.kind} options={view.options} /> },
    {
      value: "inputs",
      label: "Inputs",
      content:
        inputs.length > 0 ? (
          <TaskInputs inputs={inputs} />
        ) : (
          <p className="text-body text-muted-foreground">No inputs are shown for this result.</p>
        ),
    },
  ];

  return (
    <ResultLayout
      underHeader={false}
      tab={tab}
      onTab={setTab}
      tabs={tabs}
      title={
        <div className="flex min-w-0 items-center gap-3">
          <Link
            href="/"
            aria-label="x3d studio"
            className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground"
          >
            <Box className="size-4" aria-hidden />
          </Link>
          <div className="flex min-w-0 flex-col lg:flex-row lg:items-baseline lg:gap-3">
            <h1 className="truncate text-title font-semibold tracking-tight">{KIND_LABELS[view.kind]}</h1>
            <p className="truncate text-caption text-muted-foreground">
              made with x3d studio · <LocalTime iso={view.createdAt} dateOnly />
            </p>
          </div>
        </div>
      }
      actions={
        <Button asChild className="max-sm:size-9 max-sm:px-0">
          <a href={view.result.downloadUrl} download>
            <Download aria-hidden />
            <span className="max-sm:sr-only">Download {format.toUpperCase()}</span>
          </a>
        </Button>
      }
      stage={
        <ResultViewer
          url={view.result.url}
          format={format}
          display={view.display}
          className="size-full rounded-none border-0"
          name={`${view.kind}-${view.createdAt.slice(0, 10)}`}
          sizing={printSizing(view.kind, view.options)}
          panels={{ print: opened.includes("print") ? printSlot : null, parts: opened.includes("parts") ? partsSlot : null }}
        />
      }
    />
  );
}
