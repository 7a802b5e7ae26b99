/** Search params as a page receives them (Next.js 16: a promise). */
export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** What a create page's address may say: the task shown (`task`), and what the form starts from. */
export interface WorkspaceParams {
  task?: string;
  again?: string;
  from?: string;
  upload?: string;
}

const KEYS = ["task", "again", "from", "upload"] as const;

/** `?task=`, `?again=`, `?from=` and `?upload=` of a create page, each a single value or left out. */
export async function prefillParams(searchParams: SearchParams): Promise<WorkspaceParams> {
  const params = await searchParams;
  const one = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v.slice(0, 200) : undefined);
  const out: WorkspaceParams = {};
  for (const key of KEYS) {
    const value = one(params[key]);
    if (value) out[key] = value;
  }
  return out;
}
