"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { LazySelect } from "@/components/ui/lazy-select";
import { galleryHref } from "@/lib/tasks/read/gallery-href";
import { TASK_KINDS, TASK_STATES, type StudioTaskKind, type TaskState } from "@/lib/tasks/model/task-types";
import { KindIcon } from "./kind-icon";
import { KIND_LABELS, STATE_LABELS } from "./task-labels";

const ALL = "all";
const isKind = (v: string): v is StudioTaskKind => (TASK_KINDS as readonly string[]).includes(v);
const isState = (v: string): v is TaskState => (TASK_STATES as readonly string[]).includes(v);

interface Filters {
  kind?: StudioTaskKind | undefined;
  state?: TaskState | undefined;
}

interface Props {
  /** The gallery's path: "/" or "/tasks". */
  base: string;
  kind?: StudioTaskKind | undefined;
  state?: TaskState | undefined;
}

/**
 * The gallery's filters: kind as a row of segments with their icons, state as a select. A
 * change goes to the gallery's first page with the filters in its address (`?kind=&state=`).
 */
export function GalleryFilters({ base, kind, state }: Props) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // The latest choice, ahead of the page that shows it: a change made while the last one is on
  // its way builds on it. The address's own filters take over once they change (a page landed,
  // or back and forward).
  const [chosen, setChosen] = useState<Filters>({ kind, state });
  const [shown, setShown] = useState<Filters>({ kind, state });
  if (shown.kind !== kind || shown.state !== state) {
    setShown({ kind, state });
    setChosen({ kind, state });
  }
  const go = (next: Filters) => {
    const filters = { ...chosen, ...next };
    setChosen(filters);
    startTransition(() => router.push(galleryHref(base, filters), { scroll: false }));
  };

  // On a phone the kinds scroll sideways: bring the picked one into view (it may be the last).
  const kinds = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const scroller = kinds.current;
    const picked = scroller?.querySelector("input[type=radio]:checked")?.closest("label");
    if (!scroller || !picked) return;
    const overflow = picked.offsetLeft + picked.offsetWidth - (scroller.scrollLeft + scroller.clientWidth);
    if (overflow > 0) scroller.scrollLeft += overflow + 16;
  }, [kind]);

  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2" data-pending={pending ? "true" : undefined} aria-busy={pending}>
      {/* Scrolls sideways inside itself on a phone rather than squeezing the words or widening the page. */}
      <div ref={kinds} className="relative -mx-4 w-[calc(100%+2rem)] overflow-x-auto px-4 sm:mx-0 sm:w-auto sm:max-w-full sm:px-0">
        <SegmentedControl
          label="Kind"
          value={chosen.kind ?? ALL}
          className="w-max"
          options={[
            { value: ALL, label: <span className="whitespace-nowrap">All kinds</span> },
            ...TASK_KINDS.map((k) => ({
              value: k,
              label: (
                <span className="flex items-center gap-1.5 whitespace-nowrap">
                  <KindIcon kind={k} className="size-3.5" />
                  {KIND_LABELS[k]}
                </span>
              ),
            })),
          ]}
          onValueChange={(v) => go({ kind: isKind(v) ? v : undefined })}
        />
      </div>
      <LazySelect
        aria-label="State"
        className="w-auto min-w-36"
        value={chosen.state ?? ALL}
        onValueChange={(v) => go({ state: isState(v) ? v : undefined })}
        options={[{ value: ALL, label: "All states" }, ...TASK_STATES.map((s) => ({ value: s, label: STATE_LABELS[s] }))]}
      />
    </div>
  );
}
