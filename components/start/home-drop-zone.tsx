"use client";

import { ImageUp, LoaderCircle } from "lucide-react";
import { useEffect, useId } from "react";
import { IMAGE_HINT } from "@/components/forms/hints";
import { cn } from "@/components/ui/cn";
import { LazyDropzone } from "@/components/upload/lazy-dropzone";
import { ProgressBar } from "@/components/upload/progress-bar";
import type { UploadState } from "@/components/upload/use-uploads";
import { useUploadThenOpen } from "./use-upload-then-open";

/** Whether a paste is meant for a field rather than for the page. */
const editable = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || target.closest("input, textarea, select") !== null);

function Status({ state }: { state: UploadState }) {
  switch (state.phase) {
    case "checking":
      return <span>Checking {state.name}…</span>;
    case "uploading":
      return (
        <span className="block w-full max-w-sm space-y-1.5">
          <span className="block truncate">Uploading {state.name}…</span>
          <ProgressBar value={state.progress} label={`Uploading ${state.name}`} />
        </span>
      );
    case "done":
      return (
        <span className="flex items-center gap-2">
          <LoaderCircle className="size-4 animate-spin" aria-hidden />
          Uploaded: opening the workspace…
        </span>
      );
    default:
      return null;
  }
}

/**
 * The home page's way in: drop an image here, click to choose one, or paste one anywhere on
 * the page. It is uploaded at once, then the image-to-3D workspace opens with it.
 */
export function HomeDropZone() {
  const { state, start } = useUploadThenOpen();

  // Pasting an image anywhere on the home page starts it, unless a field has the focus.
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const file = event.clipboardData?.files[0];
      if (!file || editable(event.target)) return;
      event.preventDefault();
      start(file);
    };
    window.addEventListener("paste", onPaste);
    return () => window.removeEventListener("paste", onPaste);
  }, [start]);

  const busy = state.phase === "checking" || state.phase === "uploading" || state.phase === "done";
  const error = state.phase === "error" ? state.message : null;
  const statusId = useId();
  const errorId = useId();

  return (
    <LazyDropzone
      options={{
        multiple: false,
        noPaste: true,
        onDrop: (accepted) => {
          if (accepted[0]) start(accepted[0]);
        },
      }}
    >
      {({ getRootProps, getInputProps, isDragActive, live }) => (
        <div data-testid="home-drop" data-ready={live ? "true" : undefined} className="flex flex-col gap-2">
          {/* Beside the zone, not in it: a control inside a button is out of reach of assistive technology. */}
          <input {...getInputProps()} aria-hidden data-testid="home-drop-input" />
          <div
            {...getRootProps({ role: "button" })}
            aria-label={`Image to 3D: drop an image, click to choose, or paste. ${IMAGE_HINT}`}
            aria-describedby={cn(statusId, error && errorId)}
            aria-busy={busy}
            className={cn(
              "flex min-h-52 flex-1 cursor-pointer flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed p-6 text-center transition-colors outline-none",
              "focus-visible:border-primary focus-visible:ring-2 focus-visible:ring-ring",
              isDragActive
                ? "border-primary bg-accent"
                : error
                  ? "border-destructive/50 bg-card"
                  : "border-input bg-card hover:border-primary hover:bg-accent/50",
            )}
          >
            <span className="flex size-14 items-center justify-center rounded-full bg-primary/10 text-primary">
              <ImageUp className="size-7" aria-hidden />
            </span>
            <span className="text-title font-semibold">{isDragActive ? "Drop it to start" : "Drop an image to make a 3D model"}</span>
            <span className="text-body text-muted-foreground">
              or <span className="font-medium text-primary underline underline-offset-4">choose a file</span>, or paste one
            </span>
            <span className="text-caption text-muted-foreground">{IMAGE_HINT}</span>
            <span id={statusId} role="status" className="flex w-full justify-center text-body text-muted-foreground empty:hidden">
              <Status state={state} />
            </span>
          </div>
          {error ? (
            <p id={errorId} role="alert" className="text-body text-destructive">
              {error}
            </p>
          ) : null}
        </div>
      )}
    </LazyDropzone>
  );
}
