import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { processConstant } from "@/lib/global-singleton";

/** Which face of the app a count is for: the studio's routes or the embedded service's. */
export type Face = "studio" | "service";

/**
 * The process's metrics, in one registry kept on globalThis: Next loads each route as a
 * module graph of its own, and a counter incremented in one must be the one /metrics reads.
 */
export interface Metrics {
  registry: Registry;
  /** Tasks by kind and state, read from the database at each scrape (lib/metrics/scrape.ts). */
  studioTasks: Gauge<"kind" | "state">;
  engineTasks: Gauge<"kind" | "state">;
  /** Service tasks waiting (queueing) or running (processing), across every server. */
  queueDepth: Gauge<"state">;
  /** Seconds from a service task's start to its end, observed by the server that ran it. */
  taskDuration: Histogram<"kind" | "outcome">;
  /** Request body bytes received by multipart uploads. */
  uploadBytes: Counter<"face">;
  /** Task polls answered: the task page's GET /api/tasks/<id>, the service's query routes. */
  taskPolls: Counter<"face">;
  /** Task pages' live streams open now (GET /api/tasks/events). */
  taskEventStreams: Gauge;
}

export function metrics(): Metrics {
  return processConstant("x3d.metrics", () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const registers = [registry];
    return {
      registry,
      studioTasks: new Gauge({
        name: "x3d_studio_tasks",
        help: "Studio tasks by kind and state",
        labelNames: ["kind", "state"],
        registers,
      }),
      engineTasks: new Gauge({
        name: "x3d_engine_tasks",
        help: "Embedded service tasks by kind and state",
        labelNames: ["kind", "state"],
        registers,
      }),
      queueDepth: new Gauge({
        name: "x3d_engine_queue_depth",
        help: "Embedded service tasks waiting (queueing) or running (processing)",
        labelNames: ["state"],
        registers,
      }),
      taskDuration: new Histogram({
        name: "x3d_engine_task_duration_seconds",
        help: "Seconds from a service task's start to its success or failure, on the server that ran it",
        labelNames: ["kind", "outcome"],
        buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600],
        registers,
      }),
      uploadBytes: new Counter({
        name: "x3d_upload_bytes_total",
        help: "Bytes of multipart upload bodies received",
        labelNames: ["face"],
        registers,
      }),
      taskPolls: new Counter({ name: "x3d_task_polls_total", help: "Task status polls answered", labelNames: ["face"], registers }),
      taskEventStreams: new Gauge({
        name: "x3d_task_event_streams",
        help: "Live task event streams open (GET /api/tasks/events)",
        registers,
      }),
    };
  });
}
