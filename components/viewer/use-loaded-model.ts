"use client";

import { useEffect, useState } from "react";
import type { Group } from "three";
import type { ModelFormat } from "@/lib/viewer/formats";
import { failureReason, loadModel, type LoadedModel } from "./load-model";

export type ModelState =
  { status: "idle" } | { status: "loading" } | { status: "ready"; model: LoadedModel } | { status: "error"; reason: string };

interface Settled {
  key: string;
  state: ModelState;
}

/**
 * Loads a model and owns it: the previous model is disposed when the URL or format
 * changes (or the URL becomes null), the current one when the component unmounts, and a
 * load that finishes after either is disposed on arrival.
 */
export function useLoadedModel(url: string | null, format: ModelFormat): ModelState {
  const key = url === null ? null : `${format}\n${url}`;
  const [settled, setSettled] = useState<Settled | null>(null);

  useEffect(() => {
    if (key === null || url === null) return;
    const abort = new AbortController();
    let model: LoadedModel | undefined;
    loadModel(url, format, abort.signal).then(
      (loaded) => {
        if (abort.signal.aborted) return loaded.dispose();
        model = loaded;
        setSettled({ key, state: { status: "ready", model: loaded } });
      },
      (e: unknown) => {
        if (!abort.signal.aborted) setSettled({ key, state: { status: "error", reason: failureReason(e) } });
      },
    );
    return () => {
      abort.abort();
      model?.dispose();
    };
  }, [key, url, format]);

  if (key === null) return { status: "idle" };
  // Until this key's load settles, whatever settled before belongs to another model.
  return settled?.key === key ? settled.state : { status: "loading" };
}

/** What the viewer root's data-state says: "preview" and "ready" only once that model was drawn. */
export function viewerState(
  full: ModelState,
  preview: ModelState,
  drawn: Group | null,
  previewShown: boolean,
): "loading" | "preview" | "ready" | "error" {
  if (full.status === "error") return "error";
  if (full.status === "ready" && drawn === full.model.root) return "ready";
  if (previewShown || (preview.status === "ready" && drawn === preview.model.root)) return "preview";
  return "loading";
}
