/** Errors raised by the generators; the worker maps them to task failures. */

/** The input image could not be decoded (corrupt, truncated or not an image). */
export class InputDecodeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InputDecodeError";
  }
}

/**
 * The input decodes but is unusable (an empty mesh, an image without a subject). A
 * subclass of InputDecodeError so that callers treat it as the client's input error.
 */
export class InputContentError extends InputDecodeError {
  constructor(message: string) {
    super(message);
    this.name = "InputContentError";
  }
}
