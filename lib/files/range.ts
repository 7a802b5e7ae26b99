/** An inclusive byte range of a file, as in `Content-Range: bytes start-end/size`. */
export interface ByteRange {
  start: number;
  end: number;
}

const INT_RANGE = /^(\d+)-(\d*)$/;
const SUFFIX_RANGE = /^-(\d+)$/;

/**
 * Reads a `Range` header (RFC 9110 §14.1.2, §14.2) for a file of `size` bytes: the one range to
 * send, "unsatisfiable" (answer 416), or null to ignore the header and send the whole file.
 * Ignored: no header, another unit, bad syntax, an empty file, and more than one range. RFC 9110
 * lets a server ignore Range; sending the whole file beats multipart/byteranges, which no client
 * of these files (browsers, model viewers, download managers) needs.
 */
export function parseRange(header: string | null, size: number): ByteRange | "unsatisfiable" | null {
  const [, list] = header?.match(/^\s*bytes\s*=(.*)$/i) ?? [];
  if (list === undefined || size === 0) return null;
  // A list may carry empty elements ("0-1,,"), which recipients must accept (§5.6.1).
  const specs = list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const [spec] = specs;
  if (specs.length !== 1 || spec === undefined) return null;
  const suffix = SUFFIX_RANGE.exec(spec);
  if (suffix) {
    const length = Number(suffix[1]);
    return length === 0 ? "unsatisfiable" : { start: Math.max(0, size - length), end: size - 1 };
  }
  const int = INT_RANGE.exec(spec);
  if (!int) return null;
  const start = Number(int[1]);
  const last = int[2] ? Number(int[2]) : Infinity;
  if (last < start) return null; // invalid, not unsatisfiable: the header is ignored
  if (start >= size) return "unsatisfiable";
  return { start, end: Math.min(last, size - 1) };
}
