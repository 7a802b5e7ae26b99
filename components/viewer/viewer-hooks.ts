"use client";

import { useCallback, useEffect, useState } from "react";
import type { Group } from "three";
import { extractInWorker } from "@/lib/viewer/extract-in-worker";
import type { ExtractedModel } from "@/lib/viewer/mesh-extract";
import { DEFAULT_HEIGHT_MM } from "@/lib/viewer/print-size";

/** The chosen print height of a unitless model, kept per result in this browser (localStorage), not on the server. */
export function useStoredHeight(key: string): [number, (mm: number) => void] {
  const storageKey = `x3d:print-height-mm:${key}`;
  const [mm, setMm] = useState(() => {
    const stored = Number(typeof localStorage === "undefined" ? NaN : localStorage.getItem(storageKey));
    return Number.isFinite(stored) && stored > 0 ? stored : DEFAULT_HEIGHT_MM;
  });
  const set = useCallback(
    (next: number) => {
      setMm(next);
      try {
        localStorage.setItem(storageKey, String(next));
      } catch {
        // Storage full or refused: the height still applies to this page.
      }
    },
    [storageKey],
  );
  return [mm, set];
}

/**
 * The full model's triangles for the print panel, flattened off the page's thread once `ready`
 * (kept for that model afterwards); null until then.
 */
export function useExtractedTriangles(root: Group | null, ready: boolean): ExtractedModel | null {
  const [extracted, setExtracted] = useState<{ root: Group; model: ExtractedModel } | null>(null);
  const done = extracted !== null && extracted.root === root;
  useEffect(() => {
    if (!root || !ready || done) return;
    const abort = new AbortController();
    extractInWorker(root, abort.signal).then(
      (model) => {
        if (!abort.signal.aborted) setExtracted({ root, model });
      },
      (error: unknown) => {
        if (!abort.signal.aborted) console.warn("[viewer] could not measure the model", error);
      },
    );
    return () => abort.abort();
  }, [root, ready, done]);
  return extracted && extracted.root === root ? extracted.model : null;
}
