import "server-only";
import { and, eq, lte, sql } from "drizzle-orm";
import { db } from "@/lib/db";
import { engineTasks } from "@/lib/db/schema";
import { engineConfig, type EngineConfig } from "./config";
import { safePost } from "./net/safe-fetch";
import { callbackBody } from "./results";
import { log, withLogContext } from "@/lib/log";
import { ShuttingDown } from "@/lib/shutdown";

const CALLBACK_ATTEMPTS = 3;
const ATTEMPT_TIMEOUT_MS = 10_000;
const TICK_MS = 500;

/**
 * Where a callback goes. A worker (X3D_ROLE=worker) delivers one addressed to the app itself
 * (its public origin, e.g. the studio's own /api/callbacks/…) to the web servers at X3D_WEB_URL:
 * the public address may not reach them from where the worker runs (in compose.yaml,
 * http://localhost:3000 is the worker's own container), and that origin may resolve to a
 * private address. Any other callback goes where its client said, through the address checks.
 */
export function deliveryTarget(
  callbackUrl: string,
  config: Pick<EngineConfig, "publicOrigin" | "webOrigin">,
): { url: string; trustedOrigin?: string } {
  if (!config.webOrigin || !URL.canParse(callbackUrl)) return { url: callbackUrl };
  const url = new URL(callbackUrl);
  if (url.origin !== new URL(config.publicOrigin).origin) return { url: callbackUrl };
  const web = new URL(config.webOrigin);
  url.protocol = web.protocol;
  url.host = web.host;
  return { url: url.toString(), trustedOrigin: web.origin };
}

/**
 * Delivers finished tasks' callbacks: three attempts per outcome with doubling back-off.
 * The state lives in the database so deliveries survive restarts; each delivery is claimed
 * by pushing its next attempt time forward, so instances do not send it twice at once.
 * Deliveries run concurrently: a slow receiver delays only its own task.
 */
export class CallbackSender {
  private timer?: NodeJS.Timeout;
  private inFlight = new Map<string, Promise<void>>();
  /** Aborts the deliveries in flight when the server stops. */
  private readonly stopping = new AbortController();

  start(): void {
    this.timer = setInterval(() => void withLogContext("callbacks", () => this.sendDue()), TICK_MS);
    this.timer.unref();
  }

  /**
   * Stops sending. A delivery cut off here is not counted as an attempt: its claim runs out
   * and a server sends it again then.
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.stopping.abort(new ShuttingDown());
    await Promise.allSettled(this.inFlight.values());
  }

  async sendDue(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    try {
      const database = await db();
      const due = await database
        .select({ id: engineTasks.id })
        .from(engineTasks)
        // The database's clock, which wrote callback_next_at: a server whose clock runs ahead would send early.
        .where(and(eq(engineTasks.callbackStatus, "pending"), lte(engineTasks.callbackNextAt, sql`now()`)))
        .limit(50);
      for (const { id } of due) {
        if (this.inFlight.has(id)) continue;
        this.inFlight.set(
          id,
          withLogContext(`callback:${id}`, () => this.deliver(id))
            .catch((error: unknown) => log.error({ err: error }, `[x3d engine] callback of ${id} failed`))
            .finally(() => this.inFlight.delete(id)),
        );
      }
    } catch (error) {
      log.error({ err: error }, "[x3d engine] callback scan failed");
    }
  }

  private async deliver(taskId: string): Promise<void> {
    const database = await db();
    const [task] = await database
      .update(engineTasks)
      .set({ callbackNextAt: sql`now() + ${`${ATTEMPT_TIMEOUT_MS * 3} milliseconds`}::interval` })
      .where(and(eq(engineTasks.id, taskId), eq(engineTasks.callbackStatus, "pending"), lte(engineTasks.callbackNextAt, sql`now()`)))
      .returning();
    if (!task?.callbackUrl) return;
    const config = engineConfig();
    const target = deliveryTarget(task.callbackUrl, config);
    let delivered = false;
    try {
      const { status } = await safePost(target.url, await callbackBody(task), {
        maxBytes: 64 * 1024,
        timeoutMs: ATTEMPT_TIMEOUT_MS,
        allowPrivate: config.allowPrivateUrls,
        allowLoopbackOrigin: config.publicOrigin,
        trustedOrigin: target.trustedOrigin,
        signal: this.stopping.signal,
      });
      delivered = status >= 200 && status < 300;
    } catch {
      delivered = false;
    }
    if (this.stopping.signal.aborted && !delivered) return;
    const attempts = task.callbackAttempts + 1;
    const gaveUp = !delivered && attempts >= CALLBACK_ATTEMPTS;
    await database
      .update(engineTasks)
      .set({
        callbackAttempts: attempts,
        callbackStatus: delivered ? "delivered" : gaveUp ? "gave_up" : "pending",
        callbackNextAt:
          delivered || gaveUp ? null : sql`now() + ${`${config.callbackBackoffMs * 2 ** (attempts - 1)} milliseconds`}::interval`,
      })
      .where(eq(engineTasks.id, taskId));
  }
}
