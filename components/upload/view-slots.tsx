"use client";

import { ImagePlus } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { viewBits } from "@/lib/x3d/forms/views";
import { VIEWS, type View } from "@/lib/x3d/options";
import { FileDropZone } from "./file-drop-zone";
import type { UploadState } from "./use-uploads";

const LABELS: Record<View, string> = { front: "Front", back: "Back", left: "Left", right: "Right" };
const isView = (v: string): v is View => (VIEWS as readonly string[]).includes(v);

interface Props {
  slots: Record<View, UploadState>;
  onFile: (view: View, file: File) => void;
  onClear: (view: View) => void;
  onSwap: (a: View, b: View) => void;
  hint: string;
  /** A sentence about the views (front missing, a view no longer stored...). */
  error?: string | undefined;
}

/**
 * Four labelled slots, front, back, left and right. Drop a file on a slot, or drag a filled
 * slot onto another to swap them. Front is required; the bit string follows from the filled
 * slots, and the files are sent in that order.
 */
export function ViewSlots({ slots, onFile, onClear, onSwap, hint, error }: Props) {
  const filled = Object.fromEntries(VIEWS.map((v) => [v, slots[v].phase === "done"]));
  const bits = viewBits(filled);
  // A keyboard move: the image goes to the next slot in the row (wrapping), focus goes with it.
  const [moved, setMoved] = useState<{ from: View; to: View } | null>(null);
  const box = useRef<HTMLFieldSetElement>(null);
  const keyMove = (view: View, step: -1 | 1) => {
    const to = VIEWS[(VIEWS.indexOf(view) + step + VIEWS.length) % VIEWS.length];
    if (!to) return;
    onSwap(view, to);
    setMoved({ from: view, to });
  };
  useEffect(() => {
    if (moved) box.current?.querySelector<HTMLElement>(`[data-slot="${moved.to}"]`)?.focus();
  }, [moved]);
  return (
    <fieldset className="space-y-2" ref={box}>
      <legend className="sr-only">Views</legend>
      <div className="grid grid-cols-2 gap-2">
        {VIEWS.map((view) => (
          <FileDropZone
            key={view}
            label={LABELS[view]}
            required={view === "front"}
            hint={hint}
            icon={<ImagePlus />}
            state={slots[view]}
            onFile={(file) => onFile(view, file)}
            onClear={() => onClear(view)}
            compact
            testId={`slot-${view}`}
            dragKey={view}
            onSlotDrop={(from) => isView(from) && onSwap(from, view)}
            onKeyMove={(step) => keyMove(view, step)}
          />
        ))}
      </div>
      <p className="text-caption text-muted-foreground">
        <span data-testid="view-bits" className="font-medium text-foreground tabular-nums">
          Views: {bits}
        </span>{" "}
        (front, back, left, right). Drag a filled view onto another, or focus it and press ← or →, to swap them.
      </p>
      <p role="status" aria-live="polite" className="sr-only" data-testid="view-moved">
        {moved ? `${LABELS[moved.from]} image moved to ${LABELS[moved.to].toLowerCase()}.` : ""}
      </p>
      {error && (
        <p role="alert" className="text-caption text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}
