"use client";

import { CircleAlert, CircleCheck, Info, X } from "lucide-react";
import { Toast as ToastPrimitive } from "radix-ui";
import { useSyncExternalStore } from "react";
import { cn } from "./cn";
import { dismiss, shownToasts, subscribe } from "./toast";

const ICONS = { info: Info, success: CircleCheck, danger: CircleAlert } as const;

/** Where toasts appear: bottom right on a desktop, bottom on a phone. */
export default function Toaster() {
  const toasts = useSyncExternalStore(subscribe, shownToasts, shownToasts);
  return (
    <ToastPrimitive.Provider swipeDirection="right" duration={6000}>
      {toasts.map((t) => {
        const Icon = ICONS[t.tone ?? "info"];
        return (
          <ToastPrimitive.Root
            key={t.id}
            data-testid="toast"
            onOpenChange={(open) => {
              if (!open) dismiss(t.id);
            }}
            className="flex items-start gap-3 rounded-lg border bg-popover p-3 text-popover-foreground shadow-lg"
          >
            <Icon
              aria-hidden
              className={cn(
                "mt-0.5 size-4 shrink-0",
                t.tone === "success" ? "text-success" : t.tone === "danger" ? "text-destructive" : "text-info",
              )}
            />
            <div className="min-w-0 flex-1">
              <ToastPrimitive.Title className="text-sm font-medium">{t.title}</ToastPrimitive.Title>
              {t.description ? (
                <ToastPrimitive.Description className="text-caption text-muted-foreground">{t.description}</ToastPrimitive.Description>
              ) : null}
            </div>
            <ToastPrimitive.Close aria-label="Dismiss" className="rounded p-1 text-muted-foreground hover:text-foreground">
              <X className="size-3.5" aria-hidden />
            </ToastPrimitive.Close>
          </ToastPrimitive.Root>
        );
      })}
      <ToastPrimitive.Viewport className="fixed right-0 bottom-0 z-[60] flex w-full max-w-sm flex-col gap-2 p-4 outline-none" />
    </ToastPrimitive.Provider>
  );
}
