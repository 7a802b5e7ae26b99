"use client";

import { Upload, X } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import type { UploadState } from "./use-uploads";
import { LazyDropzone, type DropzoneApi } from "./lazy-dropzone";
import { ProgressBar } from "./progress-bar";
import { modelSummary, UploadPreview } from "./upload-preview";

const INSTRUCTION = "Drop a file, click to choose, or paste";

/** The words a zone shows after its instructions, in a sentence. */
function statusText(state: UploadState, hint: string): string {
  switch (state.phase) {
    case "empty":
    case "error":
      return hint;
    case "checking":
      return `Checking ${state.name}…`;
    case "uploading":
      return `Uploading ${state.name}…`;
    case "done":
      return state.upload.kind === "image" ? "Uploaded" : `${state.upload.filename}, ${modelSummary(state.upload)}. Uploaded`;
  }
}

/** The drag type of a filled view slot being moved onto another one. */
const SLOT_DRAG_TYPE = "application/x-x3d-slot";

interface Props {
  /** Names the zone: "Image", "Front", "Model". */
  label: string;
  /** What it takes: "PNG, JPEG or WebP, up to 20 MB". */
  hint: string;
  /** A lucide icon for what it takes (an image, a model); an upload arrow when absent. */
  icon?: React.ReactNode;
  state: UploadState;
  onFile: (file: File) => void;
  onClear: () => void;
  /** A sentence from the server about this input. */
  error?: string | undefined;
  compact?: boolean;
  required?: boolean;
  testId?: string;
  /** When set, a filled zone can be dragged onto another zone; it carries this key. */
  dragKey?: string;
  /** Receives the key of a filled zone dropped here. */
  onSlotDrop?: (fromKey: string) => void;
  /** Keyboard moves of a filled zone: ← (-1) and → (+1) while it has focus. */
  onKeyMove?: (step: -1 | 1) => void;
}

/**
 * A drop zone for one file: drop, click to choose, or paste while the zone is hovered or
 * focused. Shows the check's refusal, the upload's progress, then a thumbnail or name and size.
 */
export function FileDropZone({
  label,
  hint,
  icon,
  state,
  onFile,
  onClear,
  error,
  compact = false,
  required = false,
  testId,
  dragKey,
  onSlotDrop,
  onKeyMove,
}: Props) {
  // Paste reaches `window` unless an editable element has focus: take it while the pointer or focus is here.
  const active = useRef({ hover: false, focus: false });
  const onFileRef = useRef(onFile);
  useEffect(() => {
    onFileRef.current = onFile;
  }, [onFile]);
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const file = event.clipboardData?.files[0];
      if (!file || !(active.current.hover || active.current.focus)) return;
      event.preventDefault();
      onFileRef.current(file);
    };
    window.addEventListener("paste", onPaste);
    return () => window.removeEventListener("paste", onPaste);
  }, []);

  const filled = state.phase === "done";
  const movable = filled && !!onKeyMove;
  const rootOf = (getRootProps: DropzoneApi["getRootProps"]) =>
    getRootProps({
      role: "button",
      onKeyDown: (event: React.KeyboardEvent<HTMLElement>) => {
        if (!movable || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
        if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
        event.preventDefault();
        onKeyMove(event.key === "ArrowLeft" ? -1 : 1);
      },
      onDrop: (event: React.DragEvent<HTMLElement>) => {
        if (!onSlotDrop || !event.dataTransfer.types.includes(SLOT_DRAG_TYPE)) return;
        onSlotDrop(event.dataTransfer.getData(SLOT_DRAG_TYPE));
        event.preventDefault();
        event.stopPropagation(); // not a file drop: keep react-dropzone out of it
      },
    });
  const message = state.phase === "error" ? state.message : error;
  const messageId = useId();
  const waiting = state.phase === "empty" || state.phase === "error";
  // The name says what the zone shows, in its order (a spoken name that matches the visible words), then the arrow keys.
  const name = `${label}: ${INSTRUCTION.toLowerCase()}. ${statusText(state, hint)}${movable ? "; left and right arrow keys move the image to another slot" : ""}`;

  return (
    <LazyDropzone
      options={{
        multiple: false,
        noPaste: true,
        onDrop: (accepted) => {
          if (accepted[0]) onFile(accepted[0]);
        },
      }}
    >
      {({ getRootProps, getInputProps, isDragActive, live, clearInput }) => {
        const root = rootOf(getRootProps);
        return (
          <div
            data-testid={testId}
            // Set once react-dropzone handles the zone (loaded after the page; a stand-in takes files before).
            data-ready={live ? "true" : undefined}
            className="space-y-1"
            onMouseEnter={() => void (active.current.hover = true)}
            onMouseLeave={() => void (active.current.hover = false)}
            onFocus={() => void (active.current.focus = true)}
            onBlur={() => void (active.current.focus = false)}
          >
            {/* Beside the zone, not in it: a control inside a button is out of reach of assistive technology. */}
            <input {...getInputProps()} aria-hidden data-testid={testId ? `${testId}-input` : undefined} />
            <div
              {...root}
              aria-label={name}
              aria-describedby={message ? messageId : undefined}
              aria-keyshortcuts={movable ? "ArrowLeft ArrowRight" : undefined}
              data-slot={dragKey}
              className={cn(
                "flex cursor-pointer flex-col items-center justify-center gap-1.5 rounded-lg border-2 border-dashed text-center outline-none transition-colors",
                "focus-visible:border-primary focus-visible:ring-2 focus-visible:ring-ring",
                isDragActive
                  ? "border-primary bg-primary/10"
                  : message
                    ? "border-destructive/60 bg-destructive/5"
                    : filled
                      ? "border-border bg-card"
                      : "border-input bg-muted/40 hover:border-primary/60 hover:bg-accent/50",
                compact ? "min-h-32 p-2" : "min-h-40 p-4",
              )}
            >
              {waiting && (
                <span
                  aria-hidden
                  className={cn(
                    "flex items-center justify-center rounded-full border border-border bg-background text-muted-foreground [&_svg]:size-4",
                    compact ? "size-7" : "size-9",
                  )}
                >
                  {icon ?? <Upload />}
                </span>
              )}
              <span className="text-caption font-semibold tracking-wide text-muted-foreground uppercase">
                {label}
                {required && <span className="font-normal normal-case"> (required)</span>}
              </span>{" "}
              {/* Spaces between the parts: their words stay apart in the text read from the page. */}
              <span className={cn("text-muted-foreground", compact ? "text-caption" : "text-sm")}>{INSTRUCTION}</span>{" "}
              {waiting ? (
                <span className="text-caption text-muted-foreground">{hint}</span>
              ) : state.phase === "checking" ? (
                <span className="text-sm text-muted-foreground">Checking {state.name}…</span>
              ) : state.phase === "uploading" ? (
                <span className="w-full space-y-1 text-sm text-muted-foreground">
                  <span className="block truncate">Uploading {state.name}…</span>
                  <ProgressBar value={state.progress} label={`Uploading ${state.name}`} />
                </span>
              ) : (
                <div
                  className="w-full space-y-1"
                  draggable={!!dragKey}
                  onDragStart={(event) => {
                    if (!dragKey) return;
                    event.dataTransfer.setData(SLOT_DRAG_TYPE, dragKey);
                    event.dataTransfer.effectAllowed = "move";
                  }}
                  data-testid={testId ? `${testId}-filled` : undefined}
                >
                  <UploadPreview upload={state.upload} compact={compact} />
                  <ProgressBar value={1} label={`${state.upload.filename} uploaded`} />{" "}
                  <span className="block text-caption text-success" role="status">
                    Uploaded
                  </span>
                </div>
              )}
            </div>
            {filled && (
              <button
                type="button"
                onClick={() => {
                  // Let the same file be chosen again: the input keeps its last value otherwise, and picking it fires no change.
                  clearInput();
                  onClear();
                }}
                className={cn(buttonVariants({ variant: "ghost", size: "sm" }), "h-7 gap-1 px-2 text-muted-foreground")}
              >
                <X aria-hidden />
                Remove {label.toLowerCase()}
              </button>
            )}
            {message && (
              <p id={messageId} role="alert" className="text-caption text-destructive">
                {message}
              </p>
            )}
          </div>
        );
      }}
    </LazyDropzone>
  );
}
