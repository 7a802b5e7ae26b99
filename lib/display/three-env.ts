/**
 * The few browser features three.js's loaders touch, for running them in Node: an <img>
 * element (ImageLoader) that only captures the image's bytes, and DOMParser (3MFLoader,
 * over the small DOM of xml-dom.ts). The globals exist only for the duration of
 * one synchronous loader call, so no other code in the thread (e.g. the web server when the
 * job runs in-thread) can observe them; the images finish loading afterwards.
 */
import { resolveObjectURL } from "node:buffer";
import { LightDomParser } from "./xml-dom";

type Listener = (this: unknown, event: { type: string }) => void;

/** What three receives in place of an HTMLImageElement: the encoded bytes, undecoded. */
export interface CapturedImage {
  src: string;
  bytes?: Uint8Array;
}

/** Looks up a URL the loaders ask for that is neither blob: nor data: (e.g. a file in a zip). */
export type AssetLookup = (url: string) => Uint8Array | undefined;

function dataUrlBytes(url: string): Uint8Array {
  const comma = url.indexOf(",");
  const meta = url.slice(5, comma);
  const body = url.slice(comma + 1);
  return meta.endsWith(";base64") ? new Uint8Array(Buffer.from(body, "base64")) : new TextEncoder().encode(decodeURIComponent(body));
}

/** Collects the images three's loaders request and resolves their bytes. */
export class ImageCapture {
  private readonly loads: Array<Promise<void>> = [];
  private readonly captured = new WeakSet<object>();

  constructor(private readonly lookup: AssetLookup = () => undefined) {}

  /** The captured bytes behind a texture's `image`, if it loaded. */
  bytesOf(image: unknown): Uint8Array | undefined {
    if (typeof image !== "object" || image === null || !this.captured.has(image)) return undefined;
    return (image as CapturedImage).bytes;
  }

  /** Waits for every image requested so far (and any requested while waiting). */
  async settle(): Promise<void> {
    for (let n = -1; n !== this.loads.length;) {
      n = this.loads.length;
      await Promise.all(this.loads);
    }
  }

  /** An <img> stand-in: setting `src` reads the bytes, then fires "load" (or "error"). */
  createImage(): CapturedImage {
    const listeners = new Map<string, Listener[]>();
    const img: CapturedImage & Record<string, unknown> = {
      src: "",
      addEventListener: (type: string, fn: Listener) => listeners.set(type, [...(listeners.get(type) ?? []), fn]),
      removeEventListener: (type: string, fn: Listener) =>
        listeners.set(
          type,
          (listeners.get(type) ?? []).filter((f) => f !== fn),
        ),
    };
    const fire = (type: string): void => {
      for (const fn of [...(listeners.get(type) ?? [])]) fn.call(img, { type });
    };
    let src = "";
    Object.defineProperty(img, "src", {
      get: () => src,
      set: (url: string) => {
        src = url;
        // Resolved now: loaders may revoke a blob URL as soon as the image has loaded.
        const blob = url.startsWith("blob:") ? resolveObjectURL(url) : undefined;
        this.loads.push(
          (async () => {
            const bytes = blob ? new Uint8Array(await blob.arrayBuffer()) : url.startsWith("data:") ? dataUrlBytes(url) : this.lookup(url);
            if (!bytes) throw new Error(`image not found: ${url}`);
            img.bytes = bytes;
            this.captured.add(img);
            fire("load");
          })().catch(() => fire("error")), // the model keeps the material, without that texture
        );
      },
    });
    return img;
  }
}

/** Runs a synchronous loader call with `document.createElementNS` and `DOMParser` in place. */
export function withLoaderGlobals<T>(capture: ImageCapture, parse: () => T): T {
  const g = globalThis as Record<string, unknown>;
  const saved = { document: g.document, DOMParser: g.DOMParser };
  g.document = { createElementNS: () => capture.createImage() };
  g.DOMParser = LightDomParser;
  try {
    return parse();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete g[key];
      else g[key] = value;
    }
  }
}
