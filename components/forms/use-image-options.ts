"use client";

import { useState } from "react";
import { changeImageOptions, type ImageOptions } from "@/lib/x3d/forms/image";
import type { Model, Resolution } from "@/lib/x3d/options";

/** ImageOptions being edited; the face count is kept as typed. */
export interface ImageOptionsDraft {
  options: ImageOptions;
  faceText: string;
}

const parseFace = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

/** Editing state of image-to-3D and texture options, applying the matrix on each change. */
export function useImageOptions(initial: ImageOptions) {
  const [draft, setDraft] = useState<ImageOptionsDraft>({ options: initial, faceText: String(initial.face) });
  const reshape = (change: { model?: Model; resolution?: Resolution }) =>
    setDraft((d) => {
      const options = changeImageOptions(d.options, change);
      return { options, faceText: options.face === d.options.face ? d.faceText : String(options.face) };
    });
  return {
    draft,
    setModel: (model: Model) => reshape({ model }),
    setResolution: (resolution: Resolution) => reshape({ resolution }),
    setFaceText: (faceText: string) => setDraft((d) => ({ faceText, options: { ...d.options, face: parseFace(faceText) } })),
    set: <K extends keyof ImageOptions>(key: K, value: ImageOptions[K]) =>
      setDraft((d) => ({ ...d, options: { ...d.options, [key]: value } })),
  };
}

export type ImageOptionsEditor = ReturnType<typeof useImageOptions>;
