"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Badge, type badgeVariants } from "@/components/ui/badge";
import type { TaskState } from "@/lib/tasks/model/task-types";
import type { TaskView } from "@/lib/tasks/model/task-view";
import type { VariantProps } from "class-variance-authority";
import { subscribeTaskEvents } from "./task-events";
import { STATE_LABELS } from "./task-labels";

const TONES: Record<TaskState, VariantProps<typeof badgeVariants>["tone"]> = {
  checking: "warning",
  created: "neutral",
  queueing: "neutral",
  processing: "info",
  success: "success",
  failed: "danger",
};

export function StateLabel({ state }: { state: TaskState }) {
  return (
    <Badge data-testid="state-badge" tone={TONES[state]}>
      {STATE_LABELS[state]}
    </Badge>
  );
}

/** How often a card polls its unfinished task (a change announced on the stream is fetched at once). */
const CARD_POLL_MS = 5_000;

async function fetchState(id: string): Promise<Pick<TaskView, "state" | "settled"> | null> {
  const res = await fetch(`/api/tasks/${encodeURIComponent(id)}`, { cache: "no-cache" });
  return res.ok ? ((await res.json()) as TaskView) : null;
}

/**
 * The state of an unfinished task in a list, kept current: polled until it settles, and fetched
 * at once when the stream of task changes names it. Once it settles the list re-renders (for its
 * cover). A small loop rather than a TanStack query: the gallery loads no query library.
 */
export function LiveStateBadge({ id, initial }: { id: string; initial: TaskState }) {
  const router = useRouter();
  const [state, setState] = useState(initial);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      clearTimeout(timer);
      const task = await fetchState(id).catch(() => null);
      if (stopped) return;
      if (task) setState(task.state);
      if (task?.settled) {
        stopped = true;
        router.refresh();
        return;
      }
      timer = setTimeout(() => void check(), CARD_POLL_MS);
    };
    timer = setTimeout(() => void check(), CARD_POLL_MS);
    const unsubscribe = subscribeTaskEvents((event) => {
      if (event.id === id && !stopped) void check();
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
    };
  }, [id, router]);
  return <StateLabel state={state} />;
}
