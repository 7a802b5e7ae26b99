/**
 * File names as users send them, made safe to keep and show. Safe to import from client
 * components (no Node APIs).
 *
 * Stripped: C0 and C1 controls and DEL; the bidi controls that reorder what follows them
 * (marks U+200E/F and U+061C, embeddings and overrides U+202A–202E, isolates U+2066–2069),
 * so "invoice\u202Egpj.exe" cannot show as "invoiceexe.jpg" in the history or a download
 * dialog; and other characters that draw nothing (zero-width space U+200B, word joiner and
 * invisible operators U+2060–2064, deprecated format controls U+206A–206F, BOM U+FEFF,
 * annotation marks U+FFF9–FFFB, line and paragraph separators U+2028/9). Zero-width
 * (non-)joiners U+200C/D stay: Persian, Indic scripts and emoji sequences need them.
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
// Half a surrogate pair is not text (and encodeURIComponent throws on it).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Longest name kept, in characters (its end, where the extension is, is what stays). */
export const MAX_FILE_NAME = 200;

/** `name` without invisible and reordering characters, for showing (also names stored earlier). */
export function visibleFileName(name: string): string {
  return name.replace(LONE_SURROGATE, "\ufffd").replace(INVISIBLE, "");
}

/** The name to store: its last path part, visible characters only, at most MAX_FILE_NAME; `fallback` when nothing is left. */
export function cleanFileName(name: string, fallback: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = Array.from(visibleFileName(base).trim()).slice(-MAX_FILE_NAME).join("").trim();
  return clean || fallback;
}
