import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { format } from "node:util";
import pino, { type DestinationStream, type Logger } from "pino";
import { processConstant } from "@/lib/global-singleton";

/**
 * The server's one logger: JSON lines on stdout, each with `reqId`, the request (or background
 * job) it was written for. Keys that hold credentials are redacted, errors keep only their type,
 * message, code and stack, and every line is scrubbed of the secrets the process knows and of
 * anything shaped like a token, before it is written.
 */

/** What a line is logged for: a request's id, or a background job's ("task:<id>", "sweep:<n>"). */
interface LogContext {
  reqId: string;
}

/** The id of lines logged outside any request or job (start-up, module loading). */
const PROCESS_REQ_ID = "process";

const contexts = () => processConstant("x3d.log.contexts", () => new AsyncLocalStorage<LogContext>());
const secrets = () => processConstant("x3d.log.secrets", () => new Set<string>());

/** Runs `run` with every line it (and whatever it starts) logs carrying `reqId`. */
export function withLogContext<T>(reqId: string, run: () => T): T {
  return contexts().run({ reqId }, run);
}

/** The request or job id of the code running now, if any. */
export function currentRequestId(): string | undefined {
  return contexts().getStore()?.reqId;
}

/** Secrets shorter than this are not scrubbed (they would match ordinary words). */
const MIN_SECRET_LENGTH = 8;

/** Adds a secret value the logs must never show (a configured or generated credential). */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= MIN_SECRET_LENGTH) secrets().add(value);
}

const REDACTED = "[redacted]";

/** Patterns of credentials the process did not configure: tokens, authorization values, link secrets. */
const SECRET_PATTERNS: [RegExp, string][] = [
  // The embedded service's access tokens (x3d.<payload>.<signature>) and JWTs / JWEs (session cookies).
  [/x3d\.eyJ[\w-]*\.[\w-]+/g, `x3d.${REDACTED}`],
  [/\beyJ[\w-]{8,}\.[\w.-]+/g, REDACTED],
  // Authorization header values written out in a message.
  [/\b(Bearer|Basic|Token)\s+[\w.~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  // The studio's per-task callback secret, the last segment of /api/callbacks/<task>/<secret>.
  [/(\/api\/callbacks\/[^/\s"'?#]+\/)[^/\s"'?#\\]+/g, `$1${REDACTED}`],
  // A password in a connection string.
  [/(\b[a-z][\w+.-]*:\/\/[^:/@\s"']+:)[^@\s"']+@/gi, `$1${REDACTED}@`],
  // drizzle's failed-query errors list the statement's parameters (session ids, hashes, secrets).
  [/(params: )[^"\n]*/g, `$1${REDACTED}`],
];

/** `text` with every registered secret and every token-shaped value replaced by a marker. */
export function scrubSecrets(text: string, known: Iterable<string> = secrets()): string {
  let out = text;
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Keys whose values are redacted wherever they appear (at the top or one or two levels down). */
const SECRET_KEYS = [
  "authorization",
  "cookie",
  "set-cookie",
  "password",
  "passwordHash",
  "secret",
  "clientSecret",
  "client_secret",
  "token",
  "accessToken",
  "refreshToken",
  "sessionToken",
  "apiKey",
];
const REDACT_PATHS = SECRET_KEYS.flatMap((key) => {
  const k = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  const dot = k.startsWith("[") ? "" : ".";
  return [k, `*${dot}${k}`, `*.*${dot}${k}`];
});

interface SafeError {
  type: string;
  message: string;
  code?: string | number;
  stack?: string;
  cause?: SafeError | string;
}

/**
 * An error as the log shows it: its type, message, code, stack and cause, never its other
 * properties (a request's headers, a client's configuration, a query's parameters).
 */
export function safeError(error: unknown, depth = 0): SafeError | string {
  if (!(error instanceof Error)) {
    // Auth.js wraps the underlying error as {err}.
    const inner = typeof error === "object" && error !== null ? (error as { err?: unknown }).err : undefined;
    if (inner instanceof Error) return safeError(inner, depth);
    return typeof error === "object" && error !== null ? "(not an Error)" : scrubSecrets(String(error));
  }
  const { code, type } = error as { code?: unknown; type?: unknown };
  // Auth.js's errors say what they are in `type` (their class names are minified in the build).
  const out: SafeError = { type: typeof type === "string" ? type : error.name, message: scrubSecrets(error.message) };
  if (typeof code === "string" || typeof code === "number") out.code = code;
  if (error.stack) out.stack = scrubSecrets(error.stack);
  if (error.cause !== undefined && depth < 3) out.cause = safeError(error.cause, depth + 1);
  return out;
}

/** A destination that scrubs each line before passing it on. */
function scrubbing(destination: DestinationStream): DestinationStream {
  return { write: (line: string) => destination.write(scrubSecrets(line)) };
}

/** A logger writing to `destination` (stdout by default); tests give their own. */
export function createLogger(destination: DestinationStream = process.stdout): Logger {
  return pino(
    {
      level: "info",
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => ({ reqId: currentRequestId() ?? PROCESS_REQ_ID }),
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      serializers: { err: safeError, error: safeError },
    },
    scrubbing(destination),
  );
}

/** The process's logger (one per process, whichever module graph asks first). */
export const log: Logger = processConstant("x3d.log", () => createLogger());

type Level = "info" | "warn" | "error" | "debug";

/** `console.x(...args)` as one line of the logger: an Error among the args becomes `err`. */
function consoleLine(logger: Logger, level: Level, args: unknown[]): void {
  const error = args.find((a): a is Error => a instanceof Error);
  const rest = error ? args.filter((a) => a !== error) : args;
  const text = format(...rest).trim();
  if (error) logger[level]({ err: error }, text || error.message);
  else logger[level](text);
}

/**
 * Routes console.log/info/warn/error/debug of this thread through the logger, so what Next and
 * libraries print is a JSON line with a request id too. Once per process (instrumentation.ts).
 */
export function routeConsoleToLog(logger: Logger = log): void {
  processConstant("x3d.log.console", () => {
    console.log = (...args: unknown[]) => consoleLine(logger, "info", args);
    console.info = (...args: unknown[]) => consoleLine(logger, "info", args);
    console.warn = (...args: unknown[]) => consoleLine(logger, "warn", args);
    console.error = (...args: unknown[]) => consoleLine(logger, "error", args);
    console.debug = (...args: unknown[]) => consoleLine(logger, "debug", args);
    return true;
  });
}
