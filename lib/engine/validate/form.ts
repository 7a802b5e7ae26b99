import type { ErrorCode } from "@/lib/x3d/errors";
import { extensionOf } from "@/lib/x3d/schemas/common";
import { EngineError } from "../engine-error";

/** A stored upload, as lib/engine/net/multipart leaves it on disk. */
export interface UploadedFile {
  field: string;
  filename: string;
  path: string;
  size: number;
  /** The first bytes, for detecting the real type. */
  head: Uint8Array;
}

/** The parsed body of a create request. */
export interface FormInput {
  fields: Map<string, string[]>;
  files: Map<string, UploadedFile[]>;
}

/** The first value of a text field, trimmed; undefined when absent or blank (clients send empty defaults). */
export function text(form: FormInput, name: string): string | undefined {
  const v = form.fields.get(name)?.[0]?.trim();
  return v === undefined || v === "" ? undefined : v;
}

export function files(form: FormInput, name: string): UploadedFile[] {
  return form.files.get(name) ?? [];
}

/** A whole number (also written "3.0"), or the error. */
export function integer(raw: string, code: ErrorCode, detail: string): number {
  const n = Number(raw);
  if (!/^[+-]?\d+(\.0*)?$/.test(raw) || !Number.isSafeInteger(n)) throw new EngineError(code, detail);
  return n;
}

/** One of the listed integers. */
export function intChoice<T extends number>(raw: string | undefined, fallback: T, allowed: readonly T[], code: ErrorCode, name: string): T {
  if (raw === undefined) return fallback;
  const detail = `${name} must be one of ${allowed.join(", ")}, got "${raw}"`;
  const n = integer(raw, code, detail);
  if (!(allowed as readonly number[]).includes(n)) throw new EngineError(code, detail);
  return n as T;
}

/** One of the listed strings (case-sensitive, as the spec writes them). */
export function choice<T extends string>(raw: string | undefined, fallback: T, allowed: readonly T[], code: ErrorCode, name: string): T {
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new EngineError(code, `${name} must be one of ${allowed.join(", ")}, got "${raw}"`);
  }
  return raw as T;
}

/** A decimal within [min, max], and a multiple of `step` when given. */
export function decimal(
  raw: string | undefined,
  fallback: number,
  range: { min: number; max: number; step?: number },
  code: ErrorCode,
  name: string,
): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  const stepText = range.step ? ` in steps of ${range.step}` : "";
  const detail = `${name} must be from ${range.min} to ${range.max}${stepText}, got "${raw}"`;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(raw) || !Number.isFinite(n) || n < range.min - 1e-9 || n > range.max + 1e-9) {
    throw new EngineError(code, detail);
  }
  if (range.step) {
    const units = n / range.step;
    if (Math.abs(units - Math.round(units)) > 1e-6) throw new EngineError(code, detail);
    return Math.round(units) * range.step;
  }
  return n;
}

/** callback_url: absent, or an absolute http(s) URL. */
export function callbackUrl(form: FormInput): string | undefined {
  const raw = text(form, "callback_url");
  if (raw === undefined) return undefined;
  if (!isHttpUrl(raw)) throw new EngineError(10030001, `callback_url must be an http or https URL, got "${raw}"`);
  return raw;
}

export function isHttpUrl(raw: string): boolean {
  // Control characters are no part of a URL (RFC 3986); the URL parser would quietly encode
  // them, but the raw value is what is stored, and PostgreSQL cannot store a NUL.
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
  }
  try {
    const u = new URL(raw);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** The extension of a URL's path, lower case, without the dot ("" when none). */
export function urlExtension(raw: string): string {
  try {
    return extensionOf(new URL(raw).pathname) ?? "";
  } catch {
    return "";
  }
}
