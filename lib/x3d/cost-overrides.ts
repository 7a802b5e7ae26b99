/**
 * The operator's override of the credit costs (X3D_ENGINE_COSTS, JSON), read the same way by
 * the embedded service, which charges them, and by the studio, whose forms show them. Server
 * code: the forms get the finished table.
 */
import { z } from "zod";
import { DEFAULT_COSTS, type CostTable } from "./costs";

const costOverrides = z.object({
  imageTo3d: z.record(z.string(), z.tuple([z.number(), z.number(), z.number()])).optional(),
  split: z.number().nonnegative().optional(),
  depth: z.number().nonnegative().optional(),
  segmentation: z.number().nonnegative().optional(),
});

/** DEFAULT_COSTS with the entries `raw` (X3D_ENGINE_COSTS) overrides; throws on JSON or entries of the wrong shape. */
export function costsWithOverrides(raw: string | undefined): CostTable {
  if (!raw) return DEFAULT_COSTS;
  const parsed = costOverrides.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new Error(`X3D_ENGINE_COSTS: ${parsed.error.issues[0]?.message}`);
  const o = parsed.data;
  return {
    imageTo3d: { ...DEFAULT_COSTS.imageTo3d, ...o.imageTo3d },
    split: o.split ?? DEFAULT_COSTS.split,
    depth: o.depth ?? DEFAULT_COSTS.depth,
    segmentation: o.segmentation ?? DEFAULT_COSTS.segmentation,
  };
}
