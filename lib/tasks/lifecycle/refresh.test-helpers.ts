/**
 * Helpers for tests of task refreshes that stop before any file is copied: the deps with a
 * given service and clock, whose file fetches and display copies fail if anything asks.
 */
import type { TaskResult } from "@/lib/x3d/schemas";
import type { RefreshDeps, TaskQueries } from "./refresh";

/** A service whose every query endpoint is `query`. */
export function oneQueryService(query: (id: string) => Promise<TaskResult>): TaskQueries {
  return { queryTask: query, querySplitTask: query, queryDepthTask: query, querySegmentationTask: query };
}

/** Refresh deps for state-only tests: copying a result or deriving a display copy throws. */
export function stateOnlyDeps(service: TaskQueries, now: () => Date = () => new Date()): RefreshDeps {
  return {
    service,
    now,
    fetch: (() => Promise.reject(new Error("no result files in this test"))) as typeof fetch,
    deriveDisplay: () => Promise.reject(new Error("no display copies in this test")),
  };
}
