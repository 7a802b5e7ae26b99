// Create requests as the validators receive them (lib/files/multipart's FormInput): text fields
// and uploads whose `head` holds the real first bytes of each kind of file.
import { expect } from "vitest";
import { EngineError } from "../engine-error";
import type { FormInput, UploadedFile } from "./form";

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

/** A binary STL's first 84 bytes: an 80-byte header, then the triangle count (the file is 84 + 50 per triangle). */
function binaryStlHead(triangles: number): Uint8Array {
  const head = new Uint8Array(84);
  head.set(ascii("solid binary stl exported by a printer tool"));
  new DataView(head.buffer).setUint32(80, triangles, true);
  return head;
}

/** First bytes of real files of each kind. */
const HEADS = {
  png: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, ...ascii("IHDR")]),
  jpeg: Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, ...ascii("JFIF"), 0]),
  webp: Uint8Array.from(ascii("RIFF\x24\x00\x00\x00WEBPVP8 ")),
  gif: Uint8Array.from(ascii("GIF89a\x01\x00\x01\x00")),
  glb: Uint8Array.from([...ascii("glTF"), 2, 0, 0, 0, 0x40, 0, 0, 0]),
  asciiStl: Uint8Array.from(ascii("solid cube\n  facet normal 0 0 1\n    outer loop\n")),
  binaryStl: binaryStlHead(12),
  obj: Uint8Array.from(ascii("# cube\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")),
  fbx: Uint8Array.from([...ascii("Kaydara FBX Binary  "), 0, 0x1a, 0]),
} as const;
export type HeadKind = keyof typeof HEADS;

/** The size a file of this kind has when nothing else is said (a binary STL's size follows its triangle count). */
const naturalSize = (kind: HeadKind) => (kind === "binaryStl" ? 84 + 50 * 12 : 4096);

/** An upload of `field` whose first bytes are those of `kind`. */
export function upload(field: string, filename: string, kind: HeadKind, size: number = naturalSize(kind)): UploadedFile {
  return { field, filename, path: `/nonexistent/${filename}`, size, head: HEADS[kind] };
}

/** A FormInput from text fields (a list for a repeated field) and uploads (grouped by their field, in order). */
export function formInput(fields: Record<string, string | string[]>, uploads: UploadedFile[] = []): FormInput {
  const files = new Map<string, UploadedFile[]>();
  for (const file of uploads) files.set(file.field, [...(files.get(file.field) ?? []), file]);
  return { fields: new Map(Object.entries(fields).map(([name, value]) => [name, Array.isArray(value) ? value : [value]])), files };
}

/** The refusal `run` throws: its catalogue code and what exactly was wrong (the service's `msg` after the catalogue's). */
export function refusal(run: () => unknown): { code: number; detail: string | undefined } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    const { code, detail } = error as EngineError;
    return { code, detail };
  }
  throw new Error("expected the request to be refused, but it was accepted");
}

export const MB = 1024 * 1024;
