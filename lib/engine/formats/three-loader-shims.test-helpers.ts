/**
 * Browser shims for running three.js's loaders in Node (vitest): an <img> that decodes
 * blob: URLs with sharp, and DOMParser (xmldom) with a minimal querySelector.
 */
import { resolveObjectURL } from "node:buffer";
import { DOMParser as XmlDomParser } from "@xmldom/xmldom";
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from "vitest";
import type { RasterImage } from "@/lib/engine/mesh/types";
import { decodeImage } from "./common";

/** What the image shim hands to three in place of an HTMLImageElement. */
export interface DecodedImage {
  src: string;
  bytes: Uint8Array;
  raster: RasterImage;
  width: number;
  height: number;
}

const imageLoads: Array<Promise<void>> = [];
const loaderWarnings: string[] = [];
/** Images the loaders asked for that could not be decoded (reset before each test). */
export const failedImages: string[] = [];

/** document.createElementNS("…", "img"): setting src resolves the blob URL and decodes it. */
function fakeImage(): Record<string, unknown> {
  const listeners: Record<string, Array<(this: unknown, ev?: unknown) => void>> = {};
  const img: Record<string, unknown> = {
    addEventListener: (type: string, fn: (this: unknown) => void) => (listeners[type] ??= []).push(fn),
    removeEventListener: (type: string, fn: (this: unknown) => void) => {
      listeners[type] = (listeners[type] ?? []).filter((f) => f !== fn);
    },
  };
  let src = "";
  Object.defineProperty(img, "src", {
    set(url: string) {
      src = url;
      const fire = (type: string): void => {
        for (const fn of [...(listeners[type] ?? [])]) fn.call(img, { type });
      };
      imageLoads.push(
        (async () => {
          const blob = url.startsWith("blob:") ? resolveObjectURL(url) : undefined;
          if (!blob) throw new Error(`not a live blob URL: ${url}`);
          const bytes = new Uint8Array(await blob.arrayBuffer());
          const raster = await decodeImage(bytes);
          Object.assign(img, { bytes, raster, width: raster.width, height: raster.height });
          fire("load");
        })().catch((e: unknown) => {
          failedImages.push(`${url}: ${String(e)}`);
          fire("error");
        }),
      );
    },
    get() {
      return src;
    },
  });
  return img;
}

/** Minimal querySelector(All) for xmldom: descendant selectors of local tag names ("a b"). */
function installQuerySelector(proto: object): void {
  type El = { nodeType: number; localName?: string; childNodes: ArrayLike<El> };
  const descendants = (root: El, tag: string, out: El[]): void => {
    for (let i = 0; i < root.childNodes.length; i++) {
      const c = root.childNodes[i]!;
      if (c.nodeType !== 1) continue;
      if (c.localName === tag) out.push(c);
      descendants(c, tag, out);
    }
  };
  const select = (root: El, selector: string): El[] => {
    let current = [root];
    for (const tag of selector.trim().split(/\s+/)) {
      const next: El[] = [];
      for (const r of current) descendants(r, tag, next);
      current = [...new Set(next)];
    }
    return current;
  };
  Object.defineProperty(proto, "querySelectorAll", {
    configurable: true,
    value(this: El, s: string) {
      return select(this, s);
    },
  });
  Object.defineProperty(proto, "querySelector", {
    configurable: true,
    value(this: El, s: string) {
      return select(this, s)[0] ?? null;
    },
  });
}

/**
 * Installs the shims for the calling test file: an <img> that decodes blob: URLs with sharp
 * (three's ImageLoader), `self`, and xmldom's DOMParser with querySelector (3MFLoader); and
 * fails every test in which a loader warned.
 */
export function installBrowserShims(): void {
  const g = globalThis as Record<string, unknown>;
  const saved = { document: g.document, DOMParser: g.DOMParser, self: g.self };
  beforeAll(() => {
    g.document = { createElementNS: () => fakeImage() };
    g.self = globalThis; // GLTFLoader reads self.URL
    g.DOMParser = XmlDomParser;
    const doc = new XmlDomParser().parseFromString("<a><b/></a>", "application/xml");
    installQuerySelector(Object.getPrototypeOf(doc) as object);
    installQuerySelector(Object.getPrototypeOf(doc.documentElement) as object);
    // Loaders report problems (missing textures, unsupported data) through console.warn; every
    // test asserts there were none. USDZLoader's deprecation notice (it aliases USDLoader) is expected.
    vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
      const text = args.map(String).join(" ");
      if (!text.includes("USDZLoader has been deprecated")) loaderWarnings.push(text);
    });
  });
  beforeEach(() => {
    failedImages.length = 0;
    loaderWarnings.length = 0;
  });
  afterEach(() => {
    expect(loaderWarnings, "three.js loader warnings").toEqual([]);
  });
  afterAll(() => {
    g.document = saved.document;
    g.DOMParser = saved.DOMParser;
    g.self = saved.self;
    vi.restoreAllMocks();
  });
}

/** Waits for every image the loaders started (textures decode asynchronously). */
export async function settleImages(): Promise<void> {
  for (let n = -1; n !== imageLoads.length;) {
    n = imageLoads.length;
    await Promise.all(imageLoads);
    await new Promise((r) => setTimeout(r, 0));
  }
}
