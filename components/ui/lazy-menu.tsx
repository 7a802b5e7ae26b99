"use client";

import { cloneElement, Suspense, useState } from "react";

/**
 * A menu whose code (Radix's menu and its positioning) loads on first use, so it is not part of
 * any page's first load: until then the trigger is a plain button; the first click loads the
 * menu (it was fetched already on hover or focus) and opens it. `menu` renders the full menu
 * around the trigger it is given, opened.
 */
export function LazyMenu({
  trigger,
  menu,
  preload,
}: {
  trigger: React.ReactElement<React.ComponentProps<"button">>;
  menu: (trigger: React.ReactElement) => React.ReactNode;
  preload: () => void;
}) {
  const [opened, setOpened] = useState(false);
  if (opened) return <Suspense fallback={trigger}>{menu(trigger)}</Suspense>;
  return cloneElement(trigger, {
    onClick: () => setOpened(true),
    onPointerEnter: preload,
    onFocus: preload,
    "aria-haspopup": "menu",
    "aria-expanded": false,
  });
}
