"use client";

import { LoaderCircle } from "lucide-react";
import { useState } from "react";
import { cn } from "@/components/ui/cn";
import type { StudioTaskKind } from "@/lib/tasks/model/task-types";
import { KindIcon } from "./kind-icon";

interface Props {
  kind: StudioTaskKind;
  /** The result's cover, once stored. */
  coverUrl: string | null;
  /** Until then, the picture the task was made from, dimmed (lib/tasks/read/input-preview.ts). */
  previewUrl: string | null;
  /** Still running: a spinner over the picture. */
  live: boolean;
}

/**
 * What a task's card shows: its cover; until there is one, the image it was made from, dimmed
 * (so an artist tells their running tasks apart), or else the kind's icon.
 */
export function CardPicture({ kind, coverUrl, previewUrl, live }: Props) {
  // A preview that does not load (its upload expired, say) gives way to the icon.
  const [previewFailed, setPreviewFailed] = useState(false);
  if (coverUrl) {
    return (
      // eslint-disable-next-line @next/next/no-img-element -- a private file behind a session
      <img
        src={coverUrl}
        alt=""
        loading="lazy"
        decoding="async"
        data-testid="task-card-cover"
        className="size-full object-contain transition-transform duration-300 group-hover:scale-[1.03]"
      />
    );
  }
  const preview = previewUrl && !previewFailed;
  return (
    <span className="relative flex size-full items-center justify-center text-muted-foreground">
      {preview ? (
        // eslint-disable-next-line @next/next/no-img-element -- a private file behind a session
        <img
          src={previewUrl}
          alt=""
          loading="lazy"
          decoding="async"
          onError={() => setPreviewFailed(true)}
          className={cn("absolute inset-0 size-full object-contain opacity-40", !live && "grayscale")}
        />
      ) : null}
      {live ? (
        <span className="relative rounded-full bg-card/90 p-2 shadow-sm">
          <LoaderCircle className="size-6 animate-spin" strokeWidth={1.75} aria-hidden />
        </span>
      ) : preview ? null : (
        <KindIcon kind={kind} className="size-10 opacity-60" strokeWidth={1.5} />
      )}
    </span>
  );
}
