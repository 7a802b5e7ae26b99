import { extensionOf } from "@/lib/x3d/schemas/common";
import { EngineError } from "../engine-error";

/** A stored upload, as lib/files/multipart leaves it on disk. */
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
