"use client";

import { Check, Copy, ExternalLink, Link2 } from "lucide-react";
import { useState, useTransition } from "react";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import type { ShareActionResult } from "@/lib/tasks/lifecycle/sharing";
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
    <section className="space-y-3" aria-label="Sharing">
      {link ? (
        <>
          <input
            readOnly
            value={link}
            aria-label="Share link"
            data-testid="share-link"
            className="h-9 w-full min-w-0 rounded-md border border-input bg-card px-3 text-body"
            onFocus={(e) => e.currentTarget.select()}
          />
          <div className="flex flex-wrap gap-2">
            {/* What a visitor sees, one key press away (the field above only copies). */}
            <a href={link} target="_blank" rel="noreferrer" className={buttonVariants({ variant: "outline", size: "sm" })}>
              <ExternalLink aria-hidden />
              Open
            </a>
            <ScriptButton
              type="button"
              className={buttonVariants({ variant: "outline", size: "sm" })}
              onClick={() => void navigator.clipboard?.writeText(link).then(() => setCopied(true))}
            >
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
              {copied ? "Copied" : "Copy"}
            </ScriptButton>
            <ScriptButton
              type="button"
              disabled={pending}
              className={cn(buttonVariants({ variant: "outline", size: "sm" }), "ml-auto text-destructive hover:text-destructive")}
              onClick={() => run(revokeShare)}
            >
              Revoke link
            </ScriptButton>
          </div>
          <p className="text-caption text-muted-foreground">
            Anyone with the link sees the result, its options and the download, and nothing about you.
          </p>
        </>
      ) : (
        <>
          <p className="text-body text-muted-foreground">
            A read-only link to the result, its options and the download, for anyone you give it to; nothing about you.
          </p>
          <ScriptButton
            type="button"
            disabled={pending}
            className={buttonVariants({ variant: "default" })}
            onClick={() => run(createShare)}
          >
            <Link2 aria-hidden />
            Create share link
          </ScriptButton>
        </>
      )}
      {error ? (
        <p role="alert" className="text-body text-destructive">
          {error}
        </p>
      ) : null}
    </section>
  );
}
