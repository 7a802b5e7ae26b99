/** Search params as a page receives them (Next.js 16: a promise). */
export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** `?again=` and `?from=` of a create page, each a single value or undefined. */
export async function prefillParams(searchParams: SearchParams): Promise<{ again?: string; from?: string }> {
  const params = await searchParams;
  const one = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v.slice(0, 200) : undefined);
  const again = one(params.again);
  const from = one(params.from);
  return { ...(again ? { again } : {}), ...(from ? { from } : {}) };
}
