/**
 * Streaming ASCII text builder for the text formats (OBJ, 3MF XML, USDA): writes straight
 * into fixed-size byte chunks instead of building JS strings, so multi-million-triangle
 * meshes neither hit V8's string length limit nor hold the text twice. Each full chunk goes
 * to `sink` (e.g. a deflater) and its buffer is reused.
 */
import { textEncoder } from "./common";

const CHUNK = 1 << 22;
const DIGITS = new Uint8Array(32);

export class TextWriter {
  private buf: Uint8Array;
  private pos = 0;
  private readonly kept: Uint8Array[] = [];
  /** Bytes written so far. */
  length = 0;

  /** Without a sink, finish() returns every chunk (copies of the filled ranges). */
  constructor(
    private readonly sink?: (chunk: Uint8Array) => void,
    chunkSize = CHUNK,
  ) {
    this.buf = new Uint8Array(chunkSize);
  }

  private flush(): void {
    if (this.pos === 0) return;
    const full = this.buf.subarray(0, this.pos);
    this.length += this.pos;
    if (this.sink) {
      this.sink(full);
    } else {
      this.kept.push(full);
      this.buf = new Uint8Array(this.buf.length);
    }
    this.pos = 0;
  }

  private room(n: number): void {
    if (this.pos + n > this.buf.length) {
      this.flush();
      if (n > this.buf.length) this.buf = new Uint8Array(n);
    }
  }

  /** Any string (UTF-8). */
  str(s: string): this {
    this.room(s.length * 3);
    let p = this.pos;
    const b = this.buf;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.pos += textEncoder.encodeInto(s, b.subarray(this.pos)).written;
        return this;
      }
      b[p++] = c;
    }
    this.pos = p;
    return this;
  }

  /** Pre-encoded bytes (see `literal`): cheaper than str() in per-vertex loops. */
  bytes(b: Uint8Array): this {
    this.room(b.length);
    const out = this.buf;
    let p = this.pos;
    for (let i = 0; i < b.length; i++) out[p++] = b[i]!;
    this.pos = p;
    return this;
  }

  /** One ASCII byte. */
  ch(code: number): this {
    this.room(1);
    this.buf[this.pos++] = code;
    return this;
  }

  /** An integer (|n| < 2^53). */
  int(n: number): this {
    this.room(24);
    this.pos = writeInt(this.buf, this.pos, n);
    return this;
  }

  /** `n` written `times` times, separated by the byte `sep` (e.g. OBJ's "v/v/v" corners). */
  intRepeat(n: number, sep: number, times: number): this {
    this.room(24 * times);
    const b = this.buf;
    const start = this.pos;
    const end = writeInt(b, start, n);
    const len = end - start;
    let p = end;
    for (let t = 1; t < times; t++) {
      b[p++] = sep;
      b.copyWithin(p, start, end);
      p += len;
    }
    this.pos = p;
    return this;
  }

  /**
   * A coordinate exactly as common.fmt() prints it (at most 6 decimals, no exponent, no -0),
   * for |x| < 9e9; larger or non-finite values go through fmt().
   */
  num(x: number): this {
    const k = Math.round(x * 1e6);
    if (!(Math.abs(k) < 9e15)) return this.str(fmtSlow(x));
    if (k === 0) return this.ch(48);
    this.room(32);
    const b = this.buf;
    let p = this.pos;
    let m = k;
    if (m < 0) {
      b[p++] = 45;
      m = -m;
    }
    const whole = Math.floor(m / 1e6);
    let frac = m - whole * 1e6;
    // Integer part.
    let d = 0,
      w = whole;
    do {
      const q = Math.floor(w / 10);
      DIGITS[d++] = 48 + (w - q * 10);
      w = q;
    } while (w > 0);
    while (d > 0) b[p++] = DIGITS[--d]!;
    if (frac > 0) {
      b[p++] = 46; // .
      let digits = 6;
      while (frac % 10 === 0) {
        frac /= 10;
        digits--;
      }
      for (let i = digits - 1; i >= 0; i--) {
        const q = Math.floor(frac / 10);
        b[p + i] = 48 + (frac - q * 10);
        frac = q;
      }
      p += digits;
    }
    this.pos = p;
    return this;
  }

  /** Flushes the last chunk; returns the chunks when there is no sink. */
  finish(): Uint8Array[] {
    this.flush();
    return this.kept;
  }
}

/** Encodes a constant once for TextWriter.bytes(). */
export const literal = (s: string): Uint8Array => textEncoder.encode(s);

/** Writes integer `n` at `p`; returns the end offset. */
function writeInt(b: Uint8Array, p: number, n: number): number {
  if (n < 0) {
    b[p++] = 45; // -
    n = -n;
  }
  let d = 0;
  if (n < 0x80000000) {
    let m = n | 0;
    do {
      const q = (m / 10) | 0;
      DIGITS[d++] = 48 + m - q * 10;
      m = q;
    } while (m > 0);
  } else {
    do {
      const q = Math.floor(n / 10);
      DIGITS[d++] = 48 + (n - q * 10);
      n = q;
    } while (n > 0);
  }
  while (d > 0) b[p++] = DIGITS[--d]!;
  return p;
}

function fmtSlow(x: number): string {
  const r = Math.round(x * 1e6) / 1e6;
  return Object.is(r, -0) || !Number.isFinite(r) ? "0" : String(r);
}
