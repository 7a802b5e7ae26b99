/** Errors raised by the generators; the worker maps them to task failures. */

/** The input image could not be decoded (corrupt, truncated or not an image). */
export class InputDecodeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InputDecodeError";
  }
}

/** The input is decodable but unusable (e.g. an empty mesh or an empty silhouette). */
export class InputContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputContentError";
  }
}
