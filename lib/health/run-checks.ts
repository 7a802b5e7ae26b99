/** One part's answer: whether it works, how long the check took, and when not, a short reason. */
export interface CheckResult {
  ok: boolean;
  ms: number;
  error?: string;
}

/** A failure whose message is fit to show anyone: short, no paths, hosts or secrets. */
export class CheckFailure extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = "CheckFailure";
  }
}

/** Probes a part; throws (a CheckFailure for a reason worth showing) when it does not work. */
export type Check = () => Promise<void>;

export interface Health<K extends string> {
  status: "ok" | "failing";
  checks: Record<K, CheckResult>;
}

/**
 * Runs `check`, bounded by `timeoutMs` (a check still running then is reported failed and left
 * to finish on its own). Reasons other than a CheckFailure's are not shown: `onError` gets them.
 */
export async function runCheck(check: Check, timeoutMs: number, onError: (error: unknown) => void = () => {}): Promise<CheckResult> {
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckFailure(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([check(), timedOut]);
    return { ok: true, ms: elapsed(start) };
  } catch (error) {
    onError(error);
    return { ok: false, ms: elapsed(start), error: error instanceof CheckFailure ? error.message : "check failed" };
  } finally {
    clearTimeout(timer);
  }
}

/** Every check at once; "ok" only when all pass. */
export async function runChecks<K extends string>(
  checks: Record<K, Check>,
  timeoutMs: number,
  onError: (part: K, error: unknown) => void = () => {},
): Promise<Health<K>> {
  const parts = Object.keys(checks) as K[];
  const results = await Promise.all(parts.map((part) => runCheck(checks[part], timeoutMs, (error) => onError(part, error))));
  const answer = Object.fromEntries(parts.map((part, i) => [part, results[i]])) as Record<K, CheckResult>;
  return { status: results.every((r) => r.ok) ? "ok" : "failing", checks: answer };
}

const elapsed = (start: number) => Math.round((performance.now() - start) * 10) / 10;
