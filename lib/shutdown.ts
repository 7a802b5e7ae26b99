import "server-only";
import { processConstant } from "@/lib/global-singleton";
import { log, withLogContext } from "@/lib/log";

/**
 * Graceful stop on SIGTERM and SIGINT, over within 10 s (Docker's and systemd's default grace
 * before SIGKILL):
 *
 *   0 s    HTTP stops accepting (Next's own signal handler closes the server), and the
 *          shutdown signal aborts the studio's result copies and display derivations
 *          (they are redone by the next refresh) and the engine's callback deliveries;
 *          the engine stops claiming tasks
 *   ≤ 6 s  generation jobs still running are stopped and put back in the queue
 *   ≤ 8 s  requests in flight and `after()` work may finish
 *   then   the database is closed and the process exits with 0
 *   9.5 s  whatever is still stuck, the process exits (with 1)
 *
 * Next's handler on its own waits without limit for requests in flight and for every
 * `after()` callback before it exits: a studio result copy (a download with a 10-minute
 * limit, a display derivation of up to 2 minutes per stage) kept the process running until
 * it was killed. It also exits with 143 as soon as those are over, before the engine has put
 * its running tasks back in the queue or the database is closed. So its exit waits for ours.
 */

/** Running generation jobs may finish until this long after the signal. */
const JOBS_GRACE_MS = 6_000;
/** Requests in flight and `after()` work may finish until then. */
const HTTP_GRACE_MS = 8_000;
/** The process ends by then, whatever is stuck. */
const HARD_EXIT_MS = 9_500;

/** The reason the shutdown signal carries; work aborted with it is redone later, not failed. */
export class ShuttingDown extends Error {
  constructor() {
    super("the server is shutting down");
    this.name = "ShuttingDown";
  }
}

/** drain: stop work and put it back (all at once); close: after draining and HTTP, in order. */
export type ShutdownPhase = "drain" | "close";

interface Step {
  name: string;
  phase: ShutdownPhase;
  /** `deadline`: epoch milliseconds by which the step should be over. */
  run: (deadline: number) => Promise<void>;
}

interface State {
  controller: AbortController;
  steps: Step[];
  installed: boolean;
  started: boolean;
}

// One per process: instrumentation and each route handler are separate module graphs in Next,
// and they must all see the one signal.
function state(): State {
  return processConstant<State>("x3d.shutdown", () => ({ controller: new AbortController(), steps: [], installed: false, started: false }));
}

/** Aborted (with a ShuttingDown reason) when the process begins to stop. */
export function shutdownSignal(): AbortSignal {
  return state().controller.signal;
}

/** Registers a step of the stop sequence. */
export function onShutdown(name: string, phase: ShutdownPhase, run: (deadline: number) => Promise<void>): void {
  state().steps.push({ name, phase, run });
}

/** Handles SIGTERM and SIGINT from now on (once per process). */
export function installShutdown(): void {
  const s = state();
  if (s.installed) return;
  s.installed = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void withLogContext("shutdown", () => shutDown(signal)));
}

async function shutDown(signal: NodeJS.Signals): Promise<void> {
  const s = state();
  // A terminal's Ctrl+C reaches both `npm start` and its child, which forwards it again.
  if (s.started) return;
  s.started = true;
  const start = Date.now();
  const exit = process.exit.bind(process);
  const hard = setTimeout(() => {
    log.error(`[x3d] still stopping after ${HARD_EXIT_MS / 1000} s: exiting anyway`);
    exit(1);
  }, HARD_EXIT_MS);
  // Next's handler (`next start` registers it before the app loads) is the one that can close
  // the HTTP server: it stops accepting at once, then waits for requests and `after()` work,
  // then calls process.exit. That call is held here and tells us HTTP is done (any other
  // process.exit while stopping waits too: the hard deadline above still ends the process).
  const nextHandles = process.listenerCount(signal) > 1;
  let httpDone: () => void = () => {};
  const httpClosed = new Promise<void>((resolve) => (httpDone = resolve));
  process.exit = (() => {
    httpDone();
    return undefined as never;
  }) as typeof process.exit;
  log.info(`[x3d] ${signal}: stopping (at most ${HARD_EXIT_MS / 1000} s)`);

  s.controller.abort(new ShuttingDown());
  await runSteps(
    s.steps.filter((step) => step.phase === "drain"),
    start + JOBS_GRACE_MS,
    true,
  );
  if (nextHandles) await Promise.race([httpClosed, delay(start + HTTP_GRACE_MS - Date.now())]);
  await runSteps(
    s.steps.filter((step) => step.phase === "close"),
    start + HARD_EXIT_MS,
    false,
  );
  clearTimeout(hard);
  log.info(`[x3d] stopped in ${Date.now() - start} ms`);
  exit(0);
}

async function runSteps(steps: Step[], deadline: number, together: boolean): Promise<void> {
  const run = (step: Step) => step.run(deadline).catch((error: unknown) => log.error({ err: error }, `[x3d] stopping ${step.name} failed`));
  if (together) {
    await Promise.all(steps.map(run));
    return;
  }
  for (const step of steps) await run(step);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
