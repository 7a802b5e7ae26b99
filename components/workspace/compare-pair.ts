/** Which two of a workspace's results are compared, from the ticked ones and the one shown. Pure. */

interface Dated {
  id: string;
  createdAt: string;
}

/** Ticks a result for comparing (at most two: a third replaces the earliest tick) or unticks it. */
export function tick(ticked: readonly string[], id: string, on: boolean): string[] {
  const rest = ticked.filter((t) => t !== id);
  return on ? [...rest, id].slice(-2) : rest;
}

/**
 * The two results compared, older first (A), or null: the two ticked, or the one ticked with
 * the shown one. Results not in the list (gone) count as unticked.
 */
export function comparedPair<T extends Dated>(tasks: readonly T[], ticked: readonly string[], selected: string | null): [T, T] | null {
  const known = ticked.filter((id) => tasks.some((t) => t.id === id));
  const ids = known.length >= 2 ? known.slice(-2) : known.length === 1 && selected && selected !== known[0] ? [known[0], selected] : [];
  const pair = ids.map((id) => tasks.find((t) => t.id === id)).filter((t): t is T => t !== undefined);
  const [first, second] = pair;
  if (!first || !second) return null;
  return first.createdAt <= second.createdAt ? [first, second] : [second, first];
}
