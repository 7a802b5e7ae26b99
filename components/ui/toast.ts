// The toast queue, without the code that draws it (components/ui/toaster.tsx loads only once a toast is shown).

export interface ToastMessage {
  title: string;
  description?: string;
  tone?: "info" | "success" | "danger";
}

interface ShownToast extends ToastMessage {
  id: number;
}

// One queue per tab: any component may call toast(); the one <Toaster> in Providers shows them.
let shown: readonly ShownToast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Shows a short message in the corner (announced politely to screen readers). */
export function toast(message: ToastMessage): void {
  shown = [...shown, { ...message, id: nextId++ }].slice(-4);
  emit();
}

/** Takes a toast off the queue (its close button, its timer or a swipe). */
export function dismiss(id: number) {
  shown = shown.filter((t) => t.id !== id);
  emit();
}

/** Subscribes to the queue, for useSyncExternalStore. */
export const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The toasts on screen now. */
export const shownToasts = () => shown;
