"use client";

import { useState, useTransition } from "react";
import type { ShareActionResult } from "@/lib/tasks/share";
import { ScriptButton } from "@/components/ui/script-button";
import { useIsBrowser } from "./use-clock";

interface Props {
  taskId: string;
  /** `/share/<token>` when a live link exists. */
  initialPath: string | null;
  createShare: (taskId: string) => Promise<ShareActionResult>;
  revokeShare: (taskId: string) => Promise<ShareActionResult>;
}

/** The owner makes a read-only link to the result, copies it, or revokes it. */
export function ShareControls({ taskId, initialPath, createShare, revokeShare }: Props) {
  const [path, setPath] = useState(initialPath);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [pending, startTransition] = useTransition();
  const browser = useIsBrowser();
  const link = path ? `${browser ? window.location.origin : ""}${path}` : null;

  const run = (action: (id: string) => Promise<ShareActionResult>) =>
    startTransition(async () => {
      setError(null);
      setCopied(false);
      const result = await action(taskId);
      if (result.status === "ok") setPath(result.path);
      else setError(result.message);
    });

  return (
    <section className="space-y-2" aria-label="Sharing">
      <h2 className="text-sm font-medium text-foreground/85">Share</h2>
      {link ? (
        <>
          <div className="flex flex-wrap gap-2">
            <input
              readOnly
              value={link}
              aria-label="Share link"
              data-testid="share-link"
              className="min-w-0 flex-1 rounded-md border border-border bg-card px-2 py-1.5 text-sm"
              onFocus={(e) => e.currentTarget.select()}
            />
            {/* What a visitor sees, one key press away (the field above only copies). */}
            <a
              href={link}
              target="_blank"
              rel="noreferrer"
              className="rounded-md border border-border px-3 py-1.5 text-sm hover:border-primary"
            >
              Open
            </a>
            <ScriptButton
              type="button"
              className="rounded-md border border-border px-3 py-1.5 text-sm hover:border-primary disabled:opacity-50"
              onClick={() => void navigator.clipboard?.writeText(link).then(() => setCopied(true))}
            >
              {copied ? "Copied" : "Copy"}
            </ScriptButton>
            <ScriptButton
              type="button"
              disabled={pending}
              className="rounded-md border border-destructive/50 px-3 py-1.5 text-sm text-destructive hover:border-destructive/50 disabled:opacity-50"
              onClick={() => run(revokeShare)}
            >
              Revoke link
            </ScriptButton>
          </div>
          <p className="text-xs text-muted-foreground">
            Anyone with the link sees the result, its options and the download, and nothing about you.
          </p>
        </>
      ) : (
        <ScriptButton
          type="button"
          disabled={pending}
          className="rounded-md border border-border px-3 py-1.5 text-sm hover:border-primary disabled:opacity-50"
          onClick={() => run(createShare)}
        >
          Create share link
        </ScriptButton>
      )}
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </section>
  );
}
