/**
 * The Content-Security-Policy of the studio's pages (set per request by proxy.ts) and of the
 * files it serves. No Node APIs and no environment: proxy.ts passes in what differs.
 */

export interface PagePolicyOptions {
  /** This response's nonce (base64); Next reads it back from the request's policy and puts it on its scripts. */
  nonce: string;
  /** `next dev`: React rebuilds server error stacks with eval in development only. */
  dev?: boolean;
  /** Origins a form may post or be redirected to besides the studio (GitHub's sign-in page, when enabled). */
  formTargets?: readonly string[];
}

/**
 * Why each source is there:
 * - script-src: Next's scripts carry the nonce; 'strict-dynamic' lets them load the page's
 *   chunks (viewer, loaders); 'wasm-unsafe-eval' compiles the meshopt and Draco decoders
 *   (WebAssembly), nothing else: no eval, no inline script without the nonce.
 * - worker-src: DRACOLoader runs its decoder in workers made from blob: URLs. Listed on its own:
 *   under 'strict-dynamic' script-src ignores 'self' and blob:, and workers would fall back to it.
 * - connect-src: the studio's own routes; GLTFLoader reads embedded textures through blob: URLs
 *   (fetch, for createImageBitmap), and data: URIs in glTF buffers.
 * - img-src: covers and uploads from 'self', upload previews as blob:, data: URIs in textures.
 * - style-src: the Tailwind stylesheet and Next's nonce'd styles; style-src-attr allows the
 *   few server-rendered `style` attributes (progress bar width, backdrop colour): attributes
 *   cannot run script.
 */
export function pagePolicy({ nonce, dev = false, formTargets = [] }: PagePolicyOptions): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic' 'wasm-unsafe-eval'${dev ? " 'unsafe-eval'" : ""}`,
    "worker-src 'self' blob:",
    "connect-src 'self' blob: data:",
    "img-src 'self' blob: data:",
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "font-src 'self'",
    "media-src 'self' blob: data:",
    "object-src 'none'",
    "base-uri 'self'",
    ["form-action 'self'", ...formTargets].join(" "),
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * For files served as they were stored (results, covers, uploads): should one be opened as a
 * document (an SVG or HTML passed off as a model, say), it runs nothing and loads nothing, in a
 * sandbox of its own origin, and no page may frame it.
 */
export const FILE_POLICY = "default-src 'none'; sandbox; frame-ancestors 'none'";

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
