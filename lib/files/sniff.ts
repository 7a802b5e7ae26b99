/**
 * Content sniffing by magic bytes. Declared content types and file names of uploads and
 * fetched URLs are not trusted; callers sniff the first bytes (`head`) instead.
 *
 * HEAD_BYTES is how many leading bytes multipart.ts and lib/engine/net/safe-fetch.ts keep: binary STL
 * needs bytes 80..84 (triangle count), and text formats want a few lines.
 */

export const HEAD_BYTES = 512;

export type ImageKind = "png" | "jpeg" | "webp";
export type MeshKind = "glb" | "stl" | "obj";

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(head: Uint8Array, bytes: readonly number[], at = 0): boolean {
  if (head.length < at + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (head[at + i] !== bytes[i]) return false;
  return true;
}

function ascii(s: string): number[] {
  return Array.from(s, (c) => c.charCodeAt(0));
}

export function sniffImage(head: Uint8Array): ImageKind | null {
  if (startsWith(head, PNG_MAGIC)) return "png";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8)) return "webp";
  return null;
}

/** Bytes that don't occur in text files (NUL and most C0 controls except \t \n \v \f \r, ESC). */
function looksBinary(head: Uint8Array): boolean {
  for (const b of head) {
    if (b === 0 || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1b)) {
      return true;
    }
  }
  return false;
}

function toText(head: Uint8Array): string {
  // latin1 by hand rather than Buffer: the studio's browser code sniffs with this module too.
  let text = "";
  for (const b of head) text += String.fromCharCode(b);
  // UTF-8 byte order mark, decoded as latin1.
  if (text.startsWith("\u00ef\u00bb\u00bf")) text = text.slice(3);
  return text;
}

function isBinaryStl(head: Uint8Array, totalSize: number | undefined): boolean {
  if (totalSize === undefined || head.length < 84) return false;
  const count = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(80, true);
  return totalSize === 84 + 50 * count;
}

function isAsciiStl(text: string): boolean {
  return /^\s*solid/i.test(text) && /facet/i.test(text);
}

const OBJ_KEYWORDS = new Set(["v", "vn", "vt", "vp", "f", "l", "p", "o", "g", "s", "mtllib", "usemtl"]);

/**
 * OBJ: every (complete) non-blank line starts with a known statement or "#", and at least
 * one line is a statement (a file of comments only is not recognised).
 */
function isObj(text: string, complete: boolean): boolean {
  const lines = text.split(/\r\n|\r|\n/);
  // The last line of a truncated head may be cut in the middle of a keyword.
  if (!complete && lines.length > 1) lines.pop();
  let statements = 0;
  for (const raw of lines) {
    const line = raw.trimStart();
    if (line === "" || line.startsWith("#")) continue;
    const keyword = /^(\S+)/.exec(line)?.[1] ?? "";
    if (!OBJ_KEYWORDS.has(keyword)) return false;
    statements++;
  }
  return statements > 0;
}

/**
 * @param head the first bytes of the file (HEAD_BYTES or all of it if shorter)
 * @param totalSize the whole file's size; needed to recognise binary STL (84 + 50n bytes)
 */
export function sniffMesh(head: Uint8Array, totalSize?: number): MeshKind | null {
  if (startsWith(head, ascii("glTF"))) return "glb";
  // Checked before ASCII STL: many exporters begin binary STL headers with "solid".
  if (isBinaryStl(head, totalSize)) return "stl";
  if (looksBinary(head)) return null;
  const text = toText(head);
  if (isAsciiStl(text)) return "stl";
  const complete = totalSize !== undefined && head.length >= totalSize;
  if (isObj(text, complete)) return "obj";
  return null;
}
