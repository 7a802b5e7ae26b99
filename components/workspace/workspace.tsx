"use client";

import { useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { Loader2 } from "lucide-react";
import { Fragment, lazy, Suspense, useCallback, useRef, useState } from "react";
import { Notice } from "@/components/forms/fields";
import type { CreateAction } from "@/components/forms/use-create-action";
import { QueryProvider } from "@/components/ui/query-provider";
import { toast } from "@/components/ui/toast";
import type { CreateTaskState } from "@/lib/tasks/create/action-state";
import type { FormStart, MeshResultOption } from "@/lib/tasks/create/form-props";
import type { TaskView } from "@/lib/tasks/model/task-view";
import type { StudioTaskKind } from "@/lib/tasks/model/task-types";
import type { WorkspaceStart } from "@/lib/tasks/create/workspace";
import type { CostTable } from "@/lib/x3d/costs";
import { ResultStrip } from "./result-strip";
import { EmptyStage, TaskStage } from "./stage";
import { comparedPair, tick } from "@/components/workspace/compare-pair";
import { showInAddress } from "./address";
import { WorkspaceFormContext } from "./workspace-form";

// The segmentation workspace's look-up by service task id: only that page carries its code.
const SegmentationLookupForm = dynamic(() => import("@/components/forms/segmentation-lookup-form").then((m) => m.SegmentationLookupForm));

// Two results side by side: loaded when the artist first ticks two.
const loadCompareStage = () => import("./compare-stage");
const CompareStage = lazy(() => loadCompareStage().then((m) => ({ default: m.CompareStage })));

interface Props {
  kind: StudioTaskKind;
  title: string;
  intro: string;
  start: WorkspaceStart;
  /** The kind's form, as the page names it (`<ImageTaskFormInWorkspace />`): it takes its props from the workspace. */
  form: React.ReactNode;
  action: CreateAction;
  /** Segmentation: opens one of the user's tasks by its service task id. */
  lookUp?: CreateAction;
  costs: CostTable;
  results?: readonly MeshResultOption[];
}

const NO_RESULTS: readonly MeshResultOption[] = [];

/** The form's column: under the viewer and the strip on a phone, a column of its own that scrolls by itself from 1024 px. */
const FORM_COLUMN =
  "relative order-5 w-full scroll-mt-header border-t border-border p-4 lg:order-none lg:w-panel lg:shrink-0 lg:overflow-y-auto lg:border-t-0 lg:border-r";

async function fetchFormStart(id: string): Promise<FormStart> {
  const res = await fetch(`/api/tasks/${encodeURIComponent(id)}/prefill`, { cache: "no-store" });
  if (!res.ok) throw new Error(res.status === 404 ? "That result no longer exists." : "Its settings could not be loaded.");
  return (await res.json()) as FormStart;
}

async function fetchStripPage(kind: StudioTaskKind, page: number): Promise<{ tasks: TaskView[]; hasMore: boolean }> {
  const res = await fetch(`/api/tasks?kind=${encodeURIComponent(kind)}&page=${page}`, { cache: "no-store" });
  if (!res.ok) throw new Error("More results could not be loaded.");
  return (await res.json()) as { tasks: TaskView[]; hasMore: boolean };
}

/** The list with `task` in its place, newest first (a task looked up may be an old one, or listed already). */
function withTask(list: readonly TaskView[], task: TaskView): TaskView[] {
  if (list.some((t) => t.id === task.id)) return [...list];
  const at = list.findIndex((t) => t.createdAt < task.createdAt);
  return at === -1 ? [...list, task] : [...list.slice(0, at), task, ...list.slice(at)];
}

/**
 * A create page as one workspace: the form on the left, the selected result large in the
 * middle, the artist's results of this kind in a strip on the right (under the viewer on narrow
 * screens). Creating stays on the page: the new task comes first in the strip and is shown,
 * live. Picking a result shows it and fills the form with its settings for the next run;
 * ticking "Compare" shows two side by side. The shown task is kept in the address (`?task=`).
 */
export function Workspace(props: Props) {
  return (
    <QueryProvider>
      <WorkspaceView {...props} />
    </QueryProvider>
  );
}

function WorkspaceView({ kind, title, intro, start, form: formSlot, action, lookUp, costs, results = NO_RESULTS }: Props) {
  const queryClient = useQueryClient();
  const [tasks, setTasks] = useState<TaskView[]>(start.tasks);
  const [more, setMore] = useState({ hasMore: start.hasMore, page: 1, loading: false });
  const [selected, setSelected] = useState<string | null>(start.selected);
  const [ticked, setTicked] = useState<string[]>([]);
  const [form, setForm] = useState({ key: start.formKey, start: start.form });
  const [filling, setFilling] = useState<string | null>(null);
  const wanted = useRef<string | null>(null);

  const select = (id: string) => {
    setSelected(id);
    showInAddress(id);
    if (form.key === id) return;
    wanted.current = id;
    setFilling(id);
    queryClient
      .fetchQuery({ queryKey: ["prefill", id], queryFn: () => fetchFormStart(id), staleTime: Infinity })
      .then(
        (filled) => {
          // Only the last pick fills the form.
          if (wanted.current === id) setForm({ key: id, start: filled });
        },
        (error: unknown) => toast({ title: "The form was not filled", description: String((error as Error).message), tone: "danger" }),
      )
      .finally(() => setFilling((f) => (f === id ? null : f)));
  };

  const created = useCallback(
    (task: TaskView) => {
      queryClient.setQueryData(["task", task.id], task);
      setTasks((list) => withTask(list, task));
      setSelected(task.id);
      setTicked([]);
      showInAddress(task.id);
      // The form already holds what made it: it stays as it is, and a fill still on its way is dropped.
      wanted.current = task.id;
    },
    [queryClient],
  );

  // The answer is taken here, not in the form: a form remounted (another result picked) while its
  // task was being created would never see it.
  const showCreated = useCallback(
    (answer: CreateTaskState): CreateTaskState => {
      if (answer.status === "created") created(answer.task);
      return answer;
    },
    [created],
  );
  const createAndShow = useCallback<CreateAction>(async (state, data) => showCreated(await action(state, data)), [action, showCreated]);
  const lookUpAndShow = useCallback<CreateAction>(
    async (state, data) => (lookUp ? showCreated(await lookUp(state, data)) : state),
    [lookUp, showCreated],
  );

  const loadMore = () => {
    if (more.loading || !more.hasMore) return;
    setMore((m) => ({ ...m, loading: true }));
    fetchStripPage(kind, more.page + 1).then(
      (next) => {
        setTasks((list) => [...list, ...next.tasks.filter((t) => !list.some((known) => known.id === t.id))]);
        setMore({ hasMore: next.hasMore, page: more.page + 1, loading: false });
      },
      (error: unknown) => {
        setMore((m) => ({ ...m, loading: false }));
        toast({ title: "More results could not be loaded", description: String((error as Error).message), tone: "danger" });
      },
    );
  };

  const pair = comparedPair(tasks, ticked, selected);
  const shown = tasks.find((t) => t.id === selected);

  return (
    <div data-testid="workspace" className="flex w-full flex-col lg:h-[calc(100dvh-var(--spacing-header))] lg:flex-row lg:overflow-hidden">
      <aside id="workspace-form" aria-label={`${title} form`} className={FORM_COLUMN}>
        <header className="mb-4">
          <h1 className="text-title font-semibold tracking-tight">{title}</h1>
          <p className="mt-0.5 text-body text-muted-foreground">{intro}</p>
        </header>
        <div className="space-y-4">
          <Notice message={form.start.notice} />
          {filling ? (
            <p role="status" className="flex items-center gap-2 text-caption text-muted-foreground">
              <Loader2 className="size-3.5 animate-spin" aria-hidden /> Filling the form with that result&apos;s settings…
            </p>
          ) : null}
          <WorkspaceFormContext value={{ action: createAndShow, costs, results, start: form.start }}>
            {/* A new key fills the form anew (another result picked). */}
            <Fragment key={form.key}>{formSlot}</Fragment>
          </WorkspaceFormContext>
          {lookUp ? (
            <section className="space-y-2 border-t border-border pt-4">
              <h2 className="text-body font-medium">Look up a task</h2>
              <p className="text-caption text-muted-foreground">Open one of your segmentation tasks by its service task id.</p>
              <SegmentationLookupForm action={lookUpAndShow} />
            </section>
          ) : null}
        </div>
      </aside>

      {/* Under 1024 px its parts take their places in the one column (STAGE_BAR, STAGE_BODY). */}
      <div className="contents lg:flex lg:min-w-0 lg:flex-1 lg:flex-col">
        {pair ? (
          <Suspense fallback={<p className="m-auto p-6 text-body text-muted-foreground">Loading the comparison…</p>}>
            <CompareStage key={`${pair[0].id}:${pair[1].id}`} a={pair[0]} b={pair[1]} onClose={() => setTicked([])} />
          </Suspense>
        ) : shown ? (
          <TaskStage key={shown.id} initial={shown} />
        ) : (
          <EmptyStage kind={kind} />
        )}
      </div>

      <aside
        data-testid="recent-results"
        className="order-3 w-full border-t border-border lg:order-none lg:w-strip lg:shrink-0 lg:overflow-y-auto lg:border-t-0 lg:border-l"
      >
        <ResultStrip
          kind={kind}
          tasks={tasks}
          selected={selected}
          ticked={ticked}
          compared={pair ? [pair[0].id, pair[1].id] : null}
          onSelect={select}
          onTick={(id, on) => {
            // A first tick may be half of a comparison: fetch its code now.
            if (on) void loadCompareStage();
            setTicked((list) => tick(list, id, on));
          }}
          hasMore={more.hasMore}
          loadingMore={more.loading}
          onMore={loadMore}
        />
      </aside>
    </div>
  );
}
