import type { TaskInputView } from "@/lib/tasks/input-entries";
import type { SharedTaskView } from "@/lib/tasks/queries";
import { printSizing } from "@/lib/viewer/print-size";
import { CoverAndOptions } from "./cover-and-options";
import { LocalTime } from "./local-time";
import { ResultViewer } from "./result-viewer";
import { TaskInputs } from "./task-inputs";
import { KIND_LABELS } from "./task-labels";

/** What a share link shows: the viewer, the download, the inputs, the cover and the options, read-only. */
export function SharedResult({ view, inputs }: { view: SharedTaskView; inputs: readonly TaskInputView[] }) {
  const format = view.result.format ?? "bin";
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">{KIND_LABELS[view.kind]}</h1>
        <span className="text-sm text-muted-foreground">
          made with x3d studio · <LocalTime iso={view.createdAt} dateOnly />
        </span>
      </header>
      <ResultViewer
        url={view.result.url}
        format={format}
        display={view.display}
        className="h-[28rem] w-full"
        name={`${view.kind}-${view.createdAt.slice(0, 10)}`}
        sizing={printSizing(view.kind, view.options)}
      />
      <a
        href={view.result.downloadUrl}
        download
        className="inline-block rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground hover:bg-primary/90"
      >
        Download {format.toUpperCase()}
      </a>
      <TaskInputs inputs={inputs} />
      <CoverAndOptions coverUrl={view.cover.url} kind={view.kind} options={view.options} />
    </div>
  );
}
