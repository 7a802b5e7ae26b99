"use client";

import { LoaderCircle } from "lucide-react";
import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { ProgressBar } from "@/components/upload/progress-bar";
import { useUploadThenOpen } from "./use-upload-then-open";

/** The bundled samples in public/samples (TripoSR's examples, MIT: LICENSE-TripoSR-examples.txt beside them). */
const SAMPLES = [
  { file: "chair.png", name: "Chair" },
  { file: "robot.png", name: "Robot" },
  { file: "teapot.png", name: "Teapot" },
  { file: "police_woman.png", name: "Police officer" },
] as const;

/** A bundled sample as a file, as if the artist had chosen it. */
async function sampleFile(file: string): Promise<File> {
  const res = await fetch(`/samples/${file}`);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const blob = await res.blob();
  return new File([blob], file, { type: blob.type || "image/png" });
}

/**
 * A new account's first step: four sample images; clicking one uploads it as a dropped image
 * would be, then opens the image-to-3D workspace with it.
 */
export function SampleImages() {
  const { state, start } = useUploadThenOpen();
  const [picked, setPicked] = useState<string | null>(null);
  const [fetchError, setFetchError] = useState<string | null>(null);
  const busy = picked !== null && state.phase !== "error" && fetchError === null;

  const pick = async (file: string) => {
    setPicked(file);
    setFetchError(null);
    try {
      start(await sampleFile(file));
    } catch {
      setFetchError("The sample could not be loaded. Check the connection and try again.");
    }
  };

  const error = fetchError ?? (state.phase === "error" ? state.message : null);
  return (
    <div className="space-y-3">
      <ul className="grid max-w-3xl grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Sample images">
        {SAMPLES.map((sample) => {
          const mine = picked === sample.file;
          return (
            <li key={sample.file}>
              <button
                type="button"
                disabled={busy}
                onClick={() => void pick(sample.file)}
                aria-label={`Make a 3D model of the ${sample.name.toLowerCase()} sample`}
                data-testid="sample"
                className={cn(
                  "group relative flex w-full flex-col overflow-hidden rounded-lg border bg-background text-left transition-colors outline-none",
                  "hover:border-primary focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-progress",
                  busy && !mine && "opacity-50",
                )}
              >
                {/* eslint-disable-next-line @next/next/no-img-element -- a small static file, shown as it is */}
                <img
                  src={`/samples/${sample.file}`}
                  alt=""
                  width={512}
                  height={512}
                  className="aspect-square w-full bg-muted object-contain transition-transform duration-300 group-hover:scale-[1.04]"
                />
                <span className="flex items-center justify-between gap-2 border-t px-3 py-2 text-body font-medium">
                  {sample.name}
                  {mine && busy ? <LoaderCircle className="size-4 animate-spin text-muted-foreground" aria-hidden /> : null}
                </span>
                {mine && state.phase === "uploading" ? (
                  <span className="absolute inset-x-3 bottom-12">
                    <ProgressBar value={state.progress} label={`Uploading the ${sample.name.toLowerCase()} sample`} />
                  </span>
                ) : null}
              </button>
            </li>
          );
        })}
      </ul>
      <p role="status" className="text-caption text-muted-foreground">
        {busy
          ? state.phase === "done"
            ? "Uploaded: opening the workspace…"
            : "Uploading the sample…"
          : "Sample images: TripoSR examples, MIT licence."}
      </p>
      {error ? (
        <p role="alert" className="text-body text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
