import "server-only";
/**
 * Typed client of the x3d Open API (open-api.md, addendum): one function per endpoint, a shared
 * token that is renewed before its 24 h lifetime ends and once after a 401, and one error class.
 */
import { z } from "zod";
import { userMessage, type ErrorCode } from "./errors";
import { DEFAULT_TIMEOUTS, describeFailure, fetchWithTimeouts, mayHaveBeenSent, type Timeouts } from "./transport";
import {
  BalanceResponseSchema,
  ClientCredentialsSchema,
  DEPTH_FIELD_CODES,
  DepthCreateRequestSchema,
  DepthCreateResponseSchema,
  DepthQueryResponseSchema,
  EnvelopeHeadSchema,
  httpUrl,
  issueCode,
  QueryTaskResponseSchema,
  SEGMENTATION_FIELD_CODES,
  SegmentationCreateRequestSchema,
  SegmentationCreateResponseSchema,
  SegmentationQueryResponseSchema,
  SPLIT_FIELD_CODES,
  SplitCreateRequestSchema,
  SplitCreateResponseSchema,
  SplitQueryResponseSchema,
  SUBMIT_FIELD_CODES,
  SubmitTaskRequestSchema,
  SubmitTaskResponseSchema,
  TaskIdSchema,
  TokenResponseSchema,
  type Balance,
  type CreateResult,
  type DepthCreateInput,
  type FieldCodes,
  type SegmentationCreateInput,
  type SplitCreateInput,
  type SubmitTaskInput,
  type TaskResult,
  type TokenData,
  type X3dFile,
} from "./schemas";

/** Code of client-side failures (network, non-JSON or malformed answers): the catalogue's "system error". */
const X3D_CLIENT_FAILURE_CODE: ErrorCode = 10000000;
/** Tokens live 24 h (addendum); the client asks for a new one once its token is this old. */
export const TOKEN_RENEW_AFTER_MS = 23 * 60 * 60 * 1000;

/** service: a non-200 `code`; network: no answer; response: non-JSON or off-schema answer; input: the request failed its schema. */
export type X3dErrorKind = "service" | "network" | "response" | "input";

/** Every failure of the client: `code` is the service's code or a catalogue code for the client-side cause. */
export class X3dError extends Error {
  readonly code: number;
  readonly msg: string;
  readonly httpStatus?: number;
  readonly userMessage: string;
  readonly kind: X3dErrorKind;
  /**
   * Whether the request may have reached the service: false when it failed before sending
   * (connect refused or timed out, bad input), true for any answer and for a connection lost
   * or timed out after sending. A create that may have reached it may also have been charged.
   */
  readonly mayHaveReached: boolean;
  readonly issues?: readonly z.core.$ZodIssue[];

  constructor(init: {
    code: number;
    msg: string;
    kind: X3dErrorKind;
    httpStatus?: number;
    issues?: readonly z.core.$ZodIssue[];
    cause?: unknown;
    mayHaveReached?: boolean;
  }) {
    super(`x3d ${init.code}: ${init.msg}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "X3dError";
    this.code = init.code;
    this.msg = init.msg;
    this.kind = init.kind;
    this.mayHaveReached = init.mayHaveReached ?? init.kind !== "input";
    this.userMessage = userMessage(init.code);
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
    if (init.issues !== undefined) this.issues = init.issues;
  }
}

export interface X3dClientOptions {
  /** Origin (and optional path prefix) in front of `/open-api/v1`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
  /** Clock in milliseconds, for token age. */
  now?: () => number;
  /** Phase timeouts of the default transport (ignored when `fetch` is given). */
  timeouts?: Timeouts;
}

export type X3dClient = ReturnType<typeof createX3dClient>;

type Scheme = "Bearer" | "Token";
interface Answer {
  status: number;
  body: unknown;
}
interface Call<T> {
  method: "GET" | "POST";
  path: string;
  scheme: Scheme;
  query?: Record<string, string>;
  form?: FormData;
  schema: z.ZodType<{ data: T }>;
}

const ClientConfigSchema = ClientCredentialsSchema.extend({ baseUrl: httpUrl() });

const failure = (
  msg: string,
  kind: X3dErrorKind,
  extra?: { httpStatus?: number; issues?: readonly z.core.$ZodIssue[]; cause?: unknown; mayHaveReached?: boolean },
) => new X3dError({ code: X3D_CLIENT_FAILURE_CODE, msg, kind, ...extra });

/** Validates a request against its schema; failures become X3dError with the field's catalogue code. */
function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  codes: FieldCodes,
  fallback: ErrorCode = X3D_CLIENT_FAILURE_CODE,
): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const code = first ? issueCode(first, codes, fallback) : fallback;
  return raise(new X3dError({ code, msg: z.prettifyError(parsed.error), kind: "input", issues: parsed.error.issues }));
}

function raise(error: X3dError): never {
  throw error;
}

/** Turns file data into a Blob labelled with the file's type. */
async function toBlob(file: X3dFile): Promise<Blob> {
  const data = typeof file.data === "function" ? file.data() : file.data;
  const options = file.type === undefined ? undefined : { type: file.type };
  if (data instanceof Blob) return file.type === undefined || data.type === file.type ? data : new Blob([data], options);
  if (data instanceof Uint8Array) return new Blob([new Uint8Array(data)], options);
  const streamed = await new Response(data).blob();
  return new Blob([streamed], options);
}

const isFile = (v: unknown): v is X3dFile => typeof v === "object" && v !== null && "data" in v && "name" in v;

/** The multipart body of a create request: scalars as text, files as Blobs with their names, arrays in order. */
async function toForm(fields: Record<string, unknown>): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (isFile(item)) form.append(name, await toBlob(item), item.name);
      else form.append(name, String(item));
    }
  }
  return form;
}

/** Builds a client for one account; all calls share one cached token. */
export function createX3dClient(options: X3dClientOptions) {
  const config = parseInput(ClientConfigSchema, options, {});
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const doFetch = options.fetch ?? fetchWithTimeouts(timeouts);
  const now = options.now ?? Date.now;
  const base = config.baseUrl.replace(/\/+$/, "");
  const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`, "utf8").toString("base64");

  let cached: { token: TokenData; at: number } | undefined;
  let pending: Promise<TokenData> | undefined;

  const endpoint = (path: string, query?: Record<string, string>) => {
    const url = new URL(`${base}/open-api/v1/${path}`);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
    return url;
  };

  async function send(url: URL, init: RequestInit): Promise<Answer> {
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, init);
    } catch (cause) {
      throw failure(`network failure calling ${url.pathname}: ${describeFailure(cause, timeouts)}`, "network", {
        cause,
        mayHaveReached: mayHaveBeenSent(cause),
      });
    }
    try {
      text = await response.text();
    } catch (cause) {
      throw failure(`the answer from ${url.pathname} broke off: ${describeFailure(cause, timeouts)}`, "network", {
        cause,
        mayHaveReached: true,
      });
    }
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch (cause) {
      if (response.status === 401) return { status: 401, body: undefined };
      const msg = `non-JSON answer from ${url.pathname} (HTTP ${response.status}): ${text.slice(0, 120)}`;
      throw failure(msg, "response", { httpStatus: response.status, cause });
    }
  }

  const unauthorized = (a: Answer) => a.status === 401 || EnvelopeHeadSchema.safeParse(a.body).data?.code === 401;

  /** Checks the envelope, throws on any non-200 code, and returns the schema-checked `data`. */
  function interpret<T>(answer: Answer, schema: z.ZodType<{ data: T }>, path: string): T {
    const httpStatus = answer.status;
    if (answer.body === undefined && httpStatus === 401)
      raise(new X3dError({ code: 401, msg: "Unauthorized", kind: "service", httpStatus }));
    const head = EnvelopeHeadSchema.safeParse(answer.body);
    if (!head.success)
      throw failure(`${path} answered without an envelope: ${z.prettifyError(head.error)}`, "response", {
        httpStatus,
        issues: head.error.issues,
      });
    const { code, msg, message } = head.data;
    if (code !== 200) throw new X3dError({ code, msg: msg ?? message ?? "", kind: "service", httpStatus });
    if (httpStatus < 200 || httpStatus > 299)
      throw failure(`${path} answered code 200 with HTTP ${httpStatus}`, "response", { httpStatus });
    const full = schema.safeParse(answer.body);
    if (!full.success)
      throw failure(`${path} answer does not match its schema: ${z.prettifyError(full.error)}`, "response", {
        httpStatus,
        issues: full.error.issues,
      });
    return full.data.data;
  }

  /** One auth/token request at a time; concurrent callers share it. */
  function requestToken(): Promise<TokenData> {
    pending ??= (async () => {
      try {
        const headers = { Authorization: `Basic ${basic}`, "Content-Type": "application/json", Accept: "application/json" };
        const answer = await send(endpoint("auth/token"), { method: "POST", headers });
        const token = interpret(answer, TokenResponseSchema, "auth/token");
        cached = { token, at: now() };
        return token;
      } finally {
        pending = undefined;
      }
    })();
    return pending;
  }

  /** The cached token while it is younger than TOKEN_RENEW_AFTER_MS, else a new one. */
  function currentToken(): Promise<TokenData> {
    if (cached && now() - cached.at < TOKEN_RENEW_AFTER_MS) return Promise.resolve(cached.token);
    return requestToken();
  }

  /** A token other than `stale`: one renewed meanwhile by another call, or a new one. */
  function renewToken(stale: string): Promise<TokenData> {
    if (cached && cached.token.accessToken !== stale) return Promise.resolve(cached.token);
    cached = undefined;
    return requestToken();
  }

  /** An authorized call, renewing the token and retrying once on a 401. */
  async function call<T>(c: Call<T>): Promise<T> {
    const url = endpoint(c.path, c.query);
    const attempt = (token: TokenData) =>
      send(url, {
        method: c.method,
        headers: { Authorization: `${c.scheme} ${token.accessToken}`, Accept: "application/json" },
        body: c.form ?? null,
      });
    const first = await currentToken();
    let answer = await attempt(first);
    if (unauthorized(answer)) answer = await attempt(await renewToken(first.accessToken));
    return interpret(answer, c.schema, c.path);
  }

  const taskId = (id: string) => parseInput(TaskIdSchema, id, {}, 10030009);
  const query = async (path: string, scheme: Scheme, id: string, schema: z.ZodType<{ data: TaskResult }>) =>
    call<TaskResult>({ method: "GET", path, scheme, query: { task_id: taskId(id) }, schema });
  async function create(path: string, scheme: Scheme, fields: Record<string, unknown>, schema: z.ZodType<{ data: CreateResult }>) {
    return call<CreateResult>({ method: "POST", path, scheme, form: await toForm(fields), schema });
  }

  return {
    /** POST auth/token (Basic), through the shared cache: the current token data. */
    getToken: (): Promise<TokenData> => currentToken(),
    /** POST submit-task (Bearer): starts an image-to-3D task. */
    submitTask: async (input: SubmitTaskInput): Promise<CreateResult> =>
      create("submit-task", "Bearer", parseInput(SubmitTaskRequestSchema, input, SUBMIT_FIELD_CODES), SubmitTaskResponseSchema),
    /** GET query-task (Bearer): state and result links of an image-to-3D task. */
    queryTask: (id: string): Promise<TaskResult> => query("query-task", "Bearer", id, QueryTaskResponseSchema),
    /** GET balance (Bearer): the account's credits. */
    balance: (): Promise<Balance> => call({ method: "GET", path: "balance", scheme: "Bearer", schema: BalanceResponseSchema }),
    /** POST split/create-task (Bearer): starts a split task. */
    createSplitTask: async (input: SplitCreateInput): Promise<CreateResult> =>
      create("split/create-task", "Bearer", parseInput(SplitCreateRequestSchema, input, SPLIT_FIELD_CODES), SplitCreateResponseSchema),
    /** GET split/query-task (Token scheme): state and result links of a split task. */
    querySplitTask: (id: string): Promise<TaskResult> => query("split/query-task", "Token", id, SplitQueryResponseSchema),
    /** POST depth/create-task (Bearer): starts a depth-map task. */
    createDepthTask: async (input: DepthCreateInput): Promise<CreateResult> =>
      create("depth/create-task", "Bearer", parseInput(DepthCreateRequestSchema, input, DEPTH_FIELD_CODES), DepthCreateResponseSchema),
    /** GET depth/query-task (Bearer): state and result links of a depth task. */
    queryDepthTask: (id: string): Promise<TaskResult> => query("depth/query-task", "Bearer", id, DepthQueryResponseSchema),
    /** POST segmentation/create-task (Token scheme): starts a segmentation task. */
    createSegmentationTask: async (input: SegmentationCreateInput): Promise<CreateResult> =>
      create(
        "segmentation/create-task",
        "Token",
        parseInput(SegmentationCreateRequestSchema, input, SEGMENTATION_FIELD_CODES),
        SegmentationCreateResponseSchema,
      ),
    /** GET segmentation/query-task (Token scheme): state and result links of a segmentation task. */
    querySegmentationTask: (id: string): Promise<TaskResult> =>
      query("segmentation/query-task", "Token", id, SegmentationQueryResponseSchema),
  };
}
