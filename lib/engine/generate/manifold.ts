/**
 * The manifold-3d WASM module, instantiated once per thread, and a tiny arena so that
 * every WASM object a generator creates is freed when it is done.
 */
import Module, { type ManifoldToplevel } from "manifold-3d";

let cached: Promise<ManifoldToplevel> | undefined;

export function getManifold(): Promise<ManifoldToplevel> {
  cached ??= Module().then((wasm) => {
    wasm.setup();
    return wasm;
  });
  return cached;
}

/** Collects WASM objects; `free()` deletes them all. */
export class Arena {
  private items: { delete(): void }[] = [];
  keep<T extends { delete(): void }>(x: T): T {
    this.items.push(x);
    return x;
  }
  free(): void {
    for (const x of this.items) {
      try {
        x.delete();
      } catch {
        // already deleted
      }
    }
    this.items = [];
  }
}
