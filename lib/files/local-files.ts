import "server-only";
import { processConstant } from "@/lib/global-singleton";

/**
 * Maps a file link of the embedded service running in this process to the file's key in the
 * file store (lib/files/store), so the studio can copy its own service's results inside the
 * store (a hard link, or a server-side copy) instead of downloading them from itself over HTTP. The service registers the resolver when it boots; the studio only
 * sees this interface (it reaches the service through the Open API and never imports it).
 */
export type LocalFileResolver = (url: URL) => Promise<string | null>;

// On globalThis: the service boots in the instrumentation bundle, the studio asks from route bundles.
const slot = () => processConstant<{ resolver?: LocalFileResolver }>("x3d.files.local-resolver", () => ({}));

/** Called by the embedded service at boot. */
export function registerLocalFiles(resolver: LocalFileResolver | undefined): void {
  slot().resolver = resolver;
}

/** The store key behind `url` when it is a valid, unexpired link of this process's own service; else null. */
export async function localFileFor(url: URL): Promise<string | null> {
  const resolver = slot().resolver;
  return resolver ? resolver(url) : null;
}
