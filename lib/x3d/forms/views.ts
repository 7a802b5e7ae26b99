/**
 * The multi-view slots of an image-to-3D form (front, back, left, right) and the
 * multi_images_bit string that tells the service which views were sent.
 * Pure; safe to import from client components.
 */
import { userMessage } from "../errors";
import { VIEWS, type View } from "../options";

/** Slots filled with something (an upload id, a file), by view. */
export type ViewSlots<T> = Partial<Record<View, T | null | undefined>>;

/** The multi_images_bit for filled slots: position i is 1 when view i (front, back, left, right) is filled. */
export function viewBits(slots: ViewSlots<unknown>): string {
  return VIEWS.map((v) => (slots[v] ? "1" : "0")).join("");
}

/** The filled slots' contents in the order they are sent (front, back, left, right). */
export function viewsInOrder<T>(slots: ViewSlots<T>): T[] {
  return VIEWS.flatMap((v) => (slots[v] ? [slots[v] as T] : []));
}

/** Which view each sent file is, given the bit string: the inverse of viewsInOrder. */
export function slotsFromBits<T>(bits: string, items: readonly T[]): ViewSlots<T> {
  const slots: ViewSlots<T> = {};
  let next = 0;
  VIEWS.forEach((v, i) => {
    if (bits[i] === "1" && next < items.length) slots[v] = items[next++];
  });
  return slots;
}

/** The multi-view problem, if any: the front view is required. */
export function viewsProblem(slots: ViewSlots<unknown>): string | undefined {
  return slots.front ? undefined : userMessage(10031021);
}
