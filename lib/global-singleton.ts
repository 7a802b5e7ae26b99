/**
 * One promise per process for `key`, kept on globalThis because Next.js loads route and
 * instrumentation bundles as separate module graphs. A rejected start is forgotten, so
 * the next call tries again.
 */
export function globalSingleton<T>(key: string, start: () => Promise<T>): Promise<T> {
  const holder = globalThis as Record<symbol, Promise<T> | undefined>;
  const symbol = Symbol.for(key);
  holder[symbol] ??= start().catch((error: unknown) => {
    delete holder[symbol];
    throw error;
  });
  return holder[symbol];
}

/** What `globalSingleton(key, …)` holds, when something started it; never starts it. */
export function startedSingleton<T>(key: string): Promise<T> | undefined {
  return (globalThis as Record<symbol, Promise<T> | undefined>)[Symbol.for(key)];
}

/** One value per process for `key`, made on first use (see globalSingleton for why globalThis). */
export function processConstant<T>(key: string, make: () => T): T {
  const holder = globalThis as Record<symbol, T | undefined>;
  return (holder[Symbol.for(key)] ??= make());
}

/** Runs `install` once per process for `key` (a patch of Node's HTTP prototypes, say), however many module graphs call it. */
export function oncePerProcess(key: string, install: () => void): void {
  processConstant(key, () => {
    install();
    return true;
  });
}
