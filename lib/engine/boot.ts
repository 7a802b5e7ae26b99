import "server-only";
import { and, eq, ne, sql } from "drizzle-orm";
import { database } from "@/lib/db";
import { registerLocalFiles } from "@/lib/files/local-files";
import { globalSingleton } from "@/lib/global-singleton";
import { engineClients } from "@/lib/db/schema";
import { hashSecret } from "./auth";
import { CallbackSender } from "./callbacks";
import { engineConfig } from "./config";
import { signedFilePath } from "./results";
import { Housekeeper, keepMarkedAlive } from "./housekeeping";
import { logAbandoned, Scheduler } from "./scheduler";
import { log, withLogContext } from "@/lib/log";
import { runsWork } from "@/lib/roles";
import { onShutdown } from "@/lib/shutdown";
import { abandonUnanswered, requeueOrphans } from "./tasks/transitions";

export interface Engine {
  /** Null on a web server (X3D_ROLE=web): workers run the queue. */
  scheduler: Scheduler | null;
}

/** The running embedded service: started once per process (by instrumentation.ts at server start, or by the first request). */
export function engine(): Promise<Engine> {
  // Under a context of its own: the timers it starts must not carry the id of the request that booted it.
  return globalSingleton("x3d.engine", () => withLogContext("startup", boot));
}

async function boot(): Promise<Engine> {
  // sharp's native libraries stay loaded in the main thread for the life of the process:
  // otherwise, when a worker thread that loaded them exits (a timeout terminates it),
  // glibc unloads libvips under the other workers and the process crashes (sharp's
  // documentation on worker threads).
  await import("sharp");
  const config = engineConfig();
  const { db, kind } = await database();
  // The configured pair always works; its starting balance is granted once. A new secret for
  // the same id keeps the account; any other id is switched off (its tokens with it), its
  // tasks, balance and history kept.
  await db
    .insert(engineClients)
    .values({ id: config.clientId, secretHash: hashSecret(config.clientSecret), balance: config.startingBalance })
    .onConflictDoUpdate({ target: engineClients.id, set: { secretHash: sql`excluded.secret_hash`, active: true } });
  await db
    .update(engineClients)
    .set({ active: false })
    .where(and(ne(engineClients.id, config.clientId), eq(engineClients.active, true)));
  // Embedded PGlite means one server: whatever was processing was cut off by the restart.
  const resumed = await requeueOrphans(kind === "pglite" ? null : config.leaseMs);
  logAbandoned(await abandonUnanswered());
  registerLocalFiles(signedFilePath);
  // A web server queues tasks and answers about them; the workers sharing its database run
  // them, deliver their callbacks and keep house.
  if (!runsWork()) {
    // Its staging folders are live while it runs: the workers' housekeeping must see so.
    const stopMarking = keepMarkedAlive();
    onShutdown("the embedded service's marker", "drain", async () => stopMarking());
    return { scheduler: null };
  }
  const callbacks = new CallbackSender();
  const scheduler = new Scheduler(() => void callbacks.sendDue());
  // Crash leftovers and expired files: now, in the background (a large folder must not hold
  // up the start), and on a timer.
  const housekeeper = new Housekeeper();
  scheduler.start();
  callbacks.start();
  housekeeper.start();
  onShutdown("the embedded service", "drain", async (deadline) => {
    await Promise.all([scheduler.drain(deadline), callbacks.stop(), housekeeper.stop()]);
  });
  if (resumed > 0) log.info(`[x3d engine] resumed ${resumed} unfinished task(s)`);
  return { scheduler };
}
