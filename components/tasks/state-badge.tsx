"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { Badge, type badgeVariants } from "@/components/ui/badge";
import type { TaskState } from "@/lib/tasks/task-types";
import type { TaskView } from "@/lib/tasks/queries";
import type { VariantProps } from "class-variance-authority";
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

/** The state of an unfinished task in a list, kept current; the list re-renders once it settles (for its cover). */
export function LiveStateBadge({ id, initial }: { id: string; initial: TaskState }) {
  const router = useRouter();
  const { data } = useQuery({
    queryKey: ["task", id],
    queryFn: async (): Promise<TaskView> => {
      const res = await fetch(`/api/tasks/${encodeURIComponent(id)}`, { cache: "no-store" });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return (await res.json()) as TaskView;
    },
    refetchInterval: (query) => (query.state.data?.settled ? false : 5_000),
  });
  const settled = data?.settled ?? false;
  const refreshed = useRef(false);
  useEffect(() => {
    if (settled && !refreshed.current) {
      refreshed.current = true;
      router.refresh();
    }
  }, [settled, router]);
  return <StateLabel state={data?.state ?? initial} />;
}
