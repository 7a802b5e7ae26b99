"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { ArrowLeft, CircleCheck, CircleX, Download, GitCompare, Loader2, TriangleAlert } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { badgeVariants } from "@/components/ui/badge";
import { refreshBalance } from "@/components/ui/balance-store";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { QueryProvider } from "@/components/ui/query-provider";
import type { TaskInputView } from "@/lib/tasks/model/recorded-inputs";
import type { TaskView } from "@/lib/tasks/model/task-view";
import type { ShareActionResult } from "@/lib/tasks/lifecycle/sharing";
import type { TaskState } from "@/lib/tasks/model/task-types";
import { isImageFormat } from "@/lib/viewer/formats";
import { printSizing } from "@/lib/viewer/task-sizing";
import { DeleteTaskButton } from "./delete-task-button";
import { IconLink } from "./icon-link";
import { LocalTime } from "./local-time";
import { ResultActions } from "./result-actions";
import { ResultLayout, useOpenedTabs, ViewerPanelSlot, type ResultTab } from "./result-layout";
import { ResultViewer, viewerFormatOf } from "./result-viewer";
import { KIND_LABELS, STATE_LABELS, isFinished } from "./task-labels";
import { useIsBrowser } from "./use-clock";
import { useFinishNotification } from "./use-finish-notification";
import { useTaskEvents } from "./use-task-events";
import { useTaskTitle } from "./use-task-title";
import { TaskInputs } from "./task-inputs";

// The Details and Share panels' code loads when the panel is first shown (or hovered). The
// inputs are on the page from the start: what a task was made from (a deleted task's result,
// say) is part of what the server answers.
const loadCoverAndOptions = () => import("./cover-and-options");
const loadShareControls = () => import("./share-controls");
// What only a running or a failed task shows: rendered on the server when shown, and its code
// is then in the page; a finished task's page does not carry it.
const TaskProgress = dynamic(() => import("./task-progress").then((m) => m.TaskProgress));
const TaskFailure = dynamic(() => import("./task-failure").then((m) => m.TaskFailure));
const StateTimeline = dynamic(() => import("./state-timeline").then((m) => m.StateTimeline));

// The notification switch, shown while the task runs and on the Details panel: in the browser only (it asks the browser's permission).
const NotifyToggle = lazy(() => import("./notify-toggle").then((m) => ({ default: m.NotifyToggle })));
const CoverAndOptions = lazy(() => loadCoverAndOptions().then((m) => ({ default: m.CoverAndOptions })));
const ShareControls = lazy(() => loadShareControls().then((m) => ({ default: m.ShareControls })));

async function fetchTask(id: string): Promise<TaskView> {
  // no-cache: the browser revalidates with the ETag it holds, and an unchanged task comes back as 304.
  const res = await fetch(`/api/tasks/${encodeURIComponent(id)}`, { cache: "no-cache" });
  if (!res.ok) throw new Error(res.status === 404 ? "This task no longer exists." : "The task could not be loaded.");
  return (await res.json()) as TaskView;
}

interface Props {
  initial: TaskView;
  /** What it was made from (fixed once created: not part of the polled view). */
  inputs: readonly TaskInputView[];
  sharePath: string | null;
  createShare: (taskId: string) => Promise<ShareActionResult>;
  revokeShare: (taskId: string) => Promise<ShareActionResult>;
}

// The badge's words keep the foreground colour (readable on its tint in both themes); its icon carries the tone.
const STATE_TONES = {
  checking: "warning",
  created: "neutral",
  queueing: "neutral",
  processing: "info",
  success: "success",
  failed: "danger",
} as const satisfies Record<TaskState, string>;

/** Split and segmentation results are looked at by their parts first. */
const hasParts = (kind: TaskView["kind"]) => kind === "split" || kind === "segmentation";

/**
 * The task page, viewer first: polls the studio's status route until the task settles; the
 * viewer's place shows its progress, then the result (or why it failed), beside tabs for
 * printing, parts, details, inputs and sharing.
 */
export function TaskDetail(props: Props) {
  return (
    <QueryProvider>
      <TaskDetailView {...props} />
    </QueryProvider>
  );
}

function TaskDetailView({ initial, inputs, sharePath, createShare, revokeShare }: Props) {
  // Each change of the task refetches it at once; polling stays, slower while the stream is open.
  const { pollMs } = useTaskEvents();
  const { data: task = initial, error } = useQuery({
    queryKey: ["task", initial.id],
    queryFn: () => fetchTask(initial.id),
    initialData: initial,
    // Polls until the task settles (failed, or done with its result stored), then stops.
    refetchInterval: (query) => (query.state.data?.settled ? false : pollMs),
    refetchIntervalInBackground: false,
  });
  useTaskTitle(task);
  const browser = useIsBrowser();
  useFinishNotification(task);

  // A finished task changes the balance (charged, or refunded).
  useEffect(() => {
    if (task.settled) void refreshBalance();
  }, [task.settled]);

  const [printSlot, setPrintSlot] = useState<HTMLElement | null>(null);
  const [partsSlot, setPartsSlot] = useState<HTMLElement | null>(null);
  // The tab follows the task (its inputs while it runs, then its result) until the artist picks one.
  const [chosenTab, setChosenTab] = useState<string | null>(null);
  const failed = task.state === "failed";
  const result = task.result.url && task.result.format ? { url: task.result.url, format: task.result.format } : null;
  const tab =
    chosenTab ?? (failed ? "details" : !result ? (inputs.length > 0 ? "inputs" : "details") : hasParts(task.kind) ? "parts" : "print");
  const opened = useOpenedTabs(tab);
  const shownFormat = result ? viewerFormatOf(result.format, task.display) : null;
  const running = !isFinished(task.state) || (task.state === "success" && !result);

  const note = (what: "print" | "parts") =>
    failed
      ? "Nothing here: the task failed."
      : !result
        ? what === "print"
          ? "The size, the printability and the files for printing come with the result."
          : "The parts of a split or segmented model come with the result."
        : !shownFormat || isImageFormat(shownFormat)
          ? what === "print"
            ? "This result is not a model the viewer can measure."
            : "This result has no parts to show."
          : "Loading the model…";

  const tabs: ResultTab[] = [
    { value: "print", label: "Print", content: <ViewerPanelSlot slotRef={setPrintSlot} note={note("print")} /> },
    { value: "parts", label: "Parts", content: <ViewerPanelSlot slotRef={setPartsSlot} note={note("parts")} /> },
    {
      value: "details",
      label: "Details",
      whenOpened: true,
      preload: () => void loadCoverAndOptions(),
      content: (
        <div className="space-y-6">
          {/* While it runs, the steps are in the viewer's place. */}
          {running ? null : (
            <section className="space-y-2" aria-label="Steps">
              <h2 className="text-caption font-medium text-muted-foreground">Steps</h2>
              <StateTimeline state={task.state} stateTimes={task.stateTimes} createdAt={task.createdAt} layout="column" />
            </section>
          )}
          <CoverAndOptions coverUrl={task.cover.url} kind={task.kind} options={task.options} />
          <section className="space-y-2" aria-label="Notifications">
            <h2 className="text-caption font-medium text-muted-foreground">Notifications</h2>
            <NotifyToggle />
          </section>
        </div>
      ),
    },
    {
      value: "inputs",
      label: "Inputs",
      content:
        inputs.length > 0 ? (
          <TaskInputs inputs={inputs} />
        ) : (
          <p className="text-body text-muted-foreground">No inputs are recorded for this task.</p>
        ),
    },
    {
      value: "share",
      label: "Share",
      whenOpened: true,
      preload: () => void loadShareControls(),
      content: task.result.stored ? (
        <ShareControls taskId={task.id} initialPath={sharePath} createShare={createShare} revokeShare={revokeShare} />
      ) : (
        <p className="text-body text-muted-foreground">
          {failed ? "A failed task has nothing to share." : "A share link can be made once the result is stored."}
        </p>
      ),
    },
  ];

  const problem = error?.message ?? task.problem;
  return (
    <ResultLayout
      underHeader
      tab={tab}
      onTab={setChosenTab}
      tabs={tabs}
      title={
        <div className="flex min-w-0 flex-col gap-0.5 lg:flex-row lg:items-center lg:gap-3">
          <div className="flex min-w-0 items-center gap-2">
            <IconLink href="/tasks" label="Back to my tasks" icon={<ArrowLeft />} className="-ml-2 hidden sm:inline-flex" />
            <h1 className="truncate text-title font-semibold tracking-tight">{KIND_LABELS[task.kind]}</h1>
            <span
              data-testid="task-state"
              data-state={task.state}
              className={cn(badgeVariants({ tone: STATE_TONES[task.state] }), "text-foreground")}
            >
              <StateIcon state={task.state} running={running} />
              {STATE_LABELS[task.state]}
            </span>
          </div>
          <p className="truncate text-caption text-muted-foreground">
            {task.cost} credits · started <LocalTime iso={task.createdAt} />
          </p>
        </div>
      }
      actions={
        <>
          {result ? (
            <>
              <ResultActions taskId={task.id} format={result.format} hasCover={task.cover.stored} />
              <IconLink
                href={`/compare?t=${encodeURIComponent(task.id)}`}
                label="Compare with…"
                hint="Compare with another result"
                icon={<GitCompare />}
              />
              <Button asChild className="max-sm:size-9 max-sm:px-0">
                <a href={task.result.downloadUrl ?? result.url} download>
                  <Download aria-hidden />
                  <span className="max-sm:sr-only">Download {result.format.toUpperCase()}</span>
                </a>
              </Button>
            </>
          ) : null}
          {/* While it runs, asking to be told when it ends is the one thing to do here (also on the Details tab). */}
          {running && browser ? (
            <Suspense fallback={null}>
              <NotifyToggle compact />
            </Suspense>
          ) : null}
          <DeleteTaskButton taskId={task.id} compact />
        </>
      }
      notice={
        problem ? (
          <p className="flex shrink-0 items-center gap-2 border-b border-border bg-warning/10 px-4 py-1.5 text-caption text-foreground">
            <TriangleAlert className="size-4 shrink-0 text-warning" aria-hidden />
            {problem}
          </p>
        ) : null
      }
      stage={
        failed ? (
          <TaskFailure task={task} />
        ) : result ? (
          <ResultViewer
            url={result.url}
            format={result.format}
            display={task.display}
            className="size-full rounded-none border-0"
            name={`${task.kind}-${task.createdAt.slice(0, 10)}`}
            sizing={printSizing(task.kind, task.options)}
            panels={{ print: opened.includes("print") ? printSlot : null, parts: opened.includes("parts") ? partsSlot : null }}
          />
        ) : (
          <TaskProgress task={task} />
        )
      }
    />
  );
}

/** The state badge's icon: turning while the task runs, a tick once done, a cross when it failed. */
function StateIcon({ state, running }: { state: TaskState; running: boolean }) {
  if (running) return <Loader2 className="animate-spin text-info" aria-hidden />;
  if (state === "failed") return <CircleX className="text-destructive" aria-hidden />;
  return <CircleCheck className="text-success" aria-hidden />;
}
