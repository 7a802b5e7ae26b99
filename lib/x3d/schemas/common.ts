/**
 * Building blocks shared by the x3d Open API schemas: the response envelope, task results,
 * creation results, files, URLs and stepped decimals. Safe to import from client components.
 */
import { z } from "zod";
import type { ErrorCode } from "../errors";

/** Catalogue code a request issue maps to: set on custom issues as `params.x3dCode`. */
export type FieldCodes = Readonly<Record<string, ErrorCode>>;

/** The catalogue code for a request-schema issue: its own `params.x3dCode`, else its field's code. */
export function issueCode(issue: z.core.$ZodIssue, fieldCodes: FieldCodes, fallback: ErrorCode = 10000000): ErrorCode {
  const own: unknown = issue.code === "custom" ? issue.params?.x3dCode : undefined;
  if (typeof own === "number") return own as ErrorCode;
  const field = issue.path[0];
  return (typeof field === "string" ? fieldCodes[field] : undefined) ?? fallback;
}

/** Adds a custom issue that carries its catalogue code. */
export function addCodedIssue(ctx: z.RefinementCtx, x3dCode: ErrorCode, path: string, message: string): void {
  ctx.addIssue({ code: "custom", path: [path], message, params: { x3dCode } });
}

// ---------------------------------------------------------------- responses

export const TASK_STATES = ["created", "queueing", "processing", "success", "failed"] as const;
const TaskStateSchema = z.enum(TASK_STATES);

/** Envelope fields every JSON answer has; used to read error answers, whose `data` is `{}`. */
export const EnvelopeHeadSchema = z.object({
  code: z.number().int(),
  msg: z.string().optional(),
  message: z.string().optional(),
  data: z.unknown().optional(),
});

/** The success envelope `{code, data, msg}` around a payload schema. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), data, msg: z.string() });
}

/** `data` of every query endpoint; id, cover_url and url are "" or absent until the task succeeds. */
export const TaskResultSchema = z
  .object({
    task_id: z.string().min(1),
    state: TaskStateSchema,
    id: z.string().optional(),
    cover_url: z.string().optional(),
    url: z.string().optional(),
  })
  .superRefine((r, ctx) => {
    if (r.state === "success" && !r.url)
      ctx.addIssue({ code: "custom", path: ["url"], message: "a successful task must carry its result url" });
  });
export type TaskResult = z.infer<typeof TaskResultSchema>;

/** `data` of every create endpoint; only split create-task returns `state` (`queueing`). */
export const CreateResultSchema = z.object({ task_id: z.string().min(1), state: TaskStateSchema.optional() });
export type CreateResult = z.infer<typeof CreateResultSchema>;

export const TaskResultResponseSchema = envelope(TaskResultSchema);
export const CreateResultResponseSchema = envelope(CreateResultSchema);

// ---------------------------------------------------------------- requests

/** A task id as sent in `?task_id=`. */
export const TaskIdSchema = z.string().trim().min(1, "task_id is required");

/** File content: bytes, a Blob, or a function producing a stream or Blob when the request is built. */
export type X3dFileData = Blob | Uint8Array | (() => ReadableStream | Blob);
/** A file part of a multipart request. */
export interface X3dFile {
  name: string;
  type?: string;
  data: X3dFileData;
}

const FileDataSchema = z.custom<X3dFileData>(
  (v) => v instanceof Blob || v instanceof Uint8Array || typeof v === "function",
  "file data must be a Blob, a Uint8Array or a function returning a stream or Blob",
);

/** Byte size of file data, when known without reading it. */
export function knownSize(data: X3dFileData): number | undefined {
  if (data instanceof Blob) return data.size;
  if (data instanceof Uint8Array) return data.byteLength;
  return undefined;
}

/** The lower-case extension of a file name or URL path, if it has one. */
export function extensionOf(name: string): string | undefined {
  const last = name.split("/").pop() ?? "";
  const dot = last.lastIndexOf(".");
  return dot > 0 ? last.slice(dot + 1).toLowerCase() : undefined;
}

interface FileRules {
  extensions: readonly string[];
  maxBytes: number;
  emptyCode: ErrorCode;
  tooBigCode: ErrorCode;
}

/** A file part: when its size is known it must be non-empty and within `maxBytes`; a name extension must be allowed. */
export function fileSchema(rules: FileRules): z.ZodType<X3dFile, X3dFile> {
  return z.object({ name: z.string().min(1), type: z.string().optional(), data: FileDataSchema }).superRefine((f, ctx) => {
    const size = knownSize(f.data);
    if (size === 0) ctx.addIssue({ code: "custom", path: ["data"], message: `${f.name} is empty`, params: { x3dCode: rules.emptyCode } });
    if (size !== undefined && size > rules.maxBytes) {
      const message = `${f.name} is larger than ${rules.maxBytes / 1024 / 1024} MB`;
      ctx.addIssue({ code: "custom", path: ["data"], message, params: { x3dCode: rules.tooBigCode } });
    }
    const ext = extensionOf(f.name);
    if (ext && !rules.extensions.includes(ext)) {
      ctx.addIssue({ code: "custom", path: ["name"], message: `${f.name}: only ${rules.extensions.join(", ")} files are accepted` });
    }
  });
}

/** An http or https URL (any host, including localhost and IP addresses). */
export function httpUrl(message = "must be an http or https URL") {
  return z.url({ protocol: /^https?$/, message });
}

/** An http(s) URL whose path, when it has an extension, ends in one of `extensions` (else issue `extCode`). */
export function urlSchema(extensions: readonly string[], extCode: ErrorCode) {
  return httpUrl().refine(
    (u) => {
      const ext = extensionOf(new URL(u).pathname);
      return !ext || extensions.includes(ext);
    },
    { message: `the URL must point to a ${extensions.join(", ")} file`, params: { x3dCode: extCode } },
  );
}

export const CallbackUrlSchema = httpUrl("callback_url must be an http or https URL");
