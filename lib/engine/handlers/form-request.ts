import "server-only";
import { formatBytes } from "@/lib/files/format-bytes";
import fs from "node:fs/promises";
import { EngineError } from "../engine-error";
import { MultipartError, parseMultipart } from "@/lib/files/multipart";
import { engineConfig } from "../config";
import { stagingDir } from "../tasks/store";
import type { ErrorCode } from "@/lib/x3d/errors";
import type { FormInput } from "../validate/form";

export interface FormRules {
  fileFields: readonly string[];
  maxFileBytes: (field: string) => number;
  maxFiles: number;
  /** The code for a body that is not multipart/form-data. */
  notMultipart: ErrorCode;
  /** The code for a file over its limit. */
  tooLarge: (field: string) => ErrorCode;
  tooMany: ErrorCode;
  /** Most bytes of the whole body: every file slot at its limit, plus 1 MB of fields. */
  maxBodyBytes: number;
}

/**
 * Streams a create request's multipart body into a staging folder, runs `handle` on it, and
 * removes whatever `handle` did not move into a task folder.
 */
export async function withForm(request: Request, rules: FormRules, handle: (form: FormInput) => Promise<Response>): Promise<Response> {
  const dir = await stagingDir();
  try {
    let form: FormInput;
    try {
      form = await parseMultipart(request, {
        dir,
        fileFields: new Set(rules.fileFields),
        maxFileBytes: rules.maxFileBytes,
        maxFiles: rules.maxFiles,
        maxFieldBytes: 64 * 1024,
        maxBodyBytes: rules.maxBodyBytes,
        idleTimeoutMs: engineConfig().bodyIdleMs,
        countAs: "service",
      });
    } catch (error) {
      if (!(error instanceof MultipartError)) throw error;
      const field = (error as MultipartError & { field?: string }).field ?? "";
      switch (error.kind) {
        case "not-multipart":
          throw new EngineError(rules.notMultipart, "send the request as multipart/form-data");
        case "file-too-large":
          throw new EngineError(rules.tooLarge(field), `${field} is larger than ${formatBytes(rules.maxFileBytes(field))}`);
        case "body-too-large":
          throw new EngineError(
            rules.tooLarge(""),
            `the request is larger than ${formatBytes(rules.maxBodyBytes)}, the most this endpoint takes`,
          );
        case "timeout":
          throw new EngineError(10030013, `nothing arrived for ${engineConfig().bodyIdleMs / 1000} s`);
        case "too-many-files":
          throw new EngineError(rules.tooMany, `at most ${rules.maxFiles} files per request`);
        default:
          throw new EngineError(rules.notMultipart, error.message);
      }
    }
    return await handle(form);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
