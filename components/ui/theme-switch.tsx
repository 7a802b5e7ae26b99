"use client";

import { Monitor, Moon, Sun } from "lucide-react";
import { useState } from "react";
import { SegmentedControl } from "./segmented-control";
import { THEME_COOKIE, themeClass, type ThemeChoice } from "./theme";

const OPTIONS = [
  { value: "system", label: <Label icon={<Monitor />} text="System" /> },
  { value: "light", label: <Label icon={<Sun />} text="Light" /> },
  { value: "dark", label: <Label icon={<Moon />} text="Dark" /> },
] as const;

function Label({ icon, text }: { icon: React.ReactNode; text: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 [&_svg]:size-3.5" aria-label={text}>
      <span aria-hidden>{icon}</span>
      {text}
    </span>
  );
}

/** Applies a theme choice to the page at once and keeps it for the next visit (a year). */
function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  root.classList.remove("light", "dark");
  const cls = themeClass(choice);
  if (cls) root.classList.add(cls);
  document.cookie = `${THEME_COOKIE}=${choice}; path=/; max-age=31536000; samesite=lax`;
}

/** System, light or dark: the studio's theme, switched without a page load. */
export function ThemeSwitch({ initial, className }: { initial: ThemeChoice; className?: string }) {
  const [choice, setChoice] = useState<ThemeChoice>(initial);
  return (
    <SegmentedControl<ThemeChoice>
      label="Theme"
      value={choice}
      options={OPTIONS}
      className={className}
      onValueChange={(next) => {
        setChoice(next);
        applyTheme(next);
      }}
    />
  );
}
