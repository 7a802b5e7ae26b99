import type { SharedTaskView } from "@/lib/tasks/queries";
import { LocalTime } from "./local-time";
import { ResultViewer } from "./result-viewer";
import { KIND_LABELS } from "./task-labels";
import { TaskOptions } from "./task-options";

/** What a share link shows: the viewer, the download, the cover and the options, read-only. */
export function SharedResult({ view }: { view: SharedTaskView }) {
  const format = view.result.format ?? "bin";
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">{KIND_LABELS[view.kind]}</h1>
        <span className="text-sm text-neutral-500">
          made with x3d studio · <LocalTime iso={view.createdAt} dateOnly />
        </span>
      </header>
      <ResultViewer url={view.result.url} format={format} className="h-[28rem] w-full" name={`${view.kind}-${view.createdAt.slice(0, 10)}`} />
      <a href={view.result.downloadUrl} download className="inline-block rounded-md bg-sky-600 px-4 py-2 text-sm font-medium text-white hover:bg-sky-500">
        Download {format.toUpperCase()}
      </a>
      <div className={view.cover.url ? "grid gap-8 md:grid-cols-[16rem_1fr]" : ""}>
        {view.cover.url ? (
          // eslint-disable-next-line @next/next/no-img-element -- served by the share route, not an optimizable asset
          <img src={view.cover.url} alt="Cover of the result" className="w-64 rounded-lg border border-neutral-800" data-testid="task-cover" />
        ) : null}
        <section className="space-y-2" aria-label="Options">
          <h2 className="text-sm font-medium text-neutral-300">Options</h2>
          <TaskOptions kind={view.kind} options={view.options} />
        </section>
      </div>
    </div>
  );
}
