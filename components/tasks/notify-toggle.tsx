"use client";

import { Bell, BellRing } from "lucide-react";
import { useSyncExternalStore } from "react";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { ScriptButton } from "@/components/ui/script-button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";

/** The artist's choice, kept in this browser: "on" once they allowed notifications with the toggle. */
const STORAGE_KEY = "x3d.notify-finished";
type Choice = "unsupported" | "off" | "on" | "blocked";

const supported = () => typeof window !== "undefined" && "Notification" in window;

function currentChoice(): Choice {
  if (!supported()) return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  return Notification.permission === "granted" && localStorage.getItem(STORAGE_KEY) === "on" ? "on" : "off";
}

// The toggles on a page share the choice: a change in one shows in the others (and in other tabs, through storage events).
const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}
function store(choice: "on" | "off") {
  localStorage.setItem(STORAGE_KEY, choice);
  for (const listener of [...listeners]) listener();
}

/** Whether a finished task should be announced with a browser notification: allowed by the browser and chosen with the toggle. */
export const notificationsWanted = (): boolean => currentChoice() === "on";

/**
 * "Notify me when tasks finish": asks the browser's permission (a click is the gesture it
 * requires) and keeps the choice; pressed again, it stops the notifications (the permission stays
 * the browser's to revoke).
 */
export function NotifyToggle({
  className,
  compact = false,
}: {
  className?: string;
  /** A bell with a tooltip (a title row). */ compact?: boolean;
}) {
  const choice = useSyncExternalStore(subscribe, currentChoice, (): Choice => "off");
  if (choice === "unsupported") return null;
  const toggle = async () => {
    if (choice === "on") return store("off");
    const permission = await Notification.requestPermission();
    store(permission === "granted" ? "on" : "off");
  };
  if (compact) {
    return (
      <Tooltip>
        <TooltipTrigger asChild>
          <ScriptButton
            type="button"
            aria-label="Notify me when tasks finish"
            aria-pressed={choice === "on"}
            disabled={choice === "blocked"}
            onClick={() => void toggle()}
            className={cn(
              buttonVariants({ variant: "ghost", size: "icon" }),
              "aria-pressed:bg-primary/15 aria-pressed:text-primary",
              className,
            )}
          >
            {choice === "on" ? <BellRing aria-hidden /> : <Bell aria-hidden />}
          </ScriptButton>
        </TooltipTrigger>
        <TooltipContent>
          {choice === "blocked"
            ? "Notifications are blocked in this browser's settings"
            : choice === "on"
              ? "You are told when tasks finish (press to stop)"
              : "Notify me when tasks finish"}
        </TooltipContent>
      </Tooltip>
    );
  }
  return (
    <span className={className}>
      <ScriptButton
        type="button"
        aria-pressed={choice === "on"}
        disabled={choice === "blocked"}
        onClick={() => void toggle()}
        className="inline-flex h-8 items-center gap-1.5 rounded-md border border-input px-3 text-sm hover:bg-accent aria-pressed:border-primary aria-pressed:text-primary disabled:opacity-60"
      >
        {choice === "on" ? <BellRing className="size-4" aria-hidden /> : <Bell className="size-4" aria-hidden />}
        Notify me when tasks finish
      </ScriptButton>
      {choice === "blocked" ? (
        <span className="ml-2 text-xs text-muted-foreground">Notifications are blocked in this browser&apos;s settings.</span>
      ) : null}
    </span>
  );
}
