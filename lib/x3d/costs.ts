/**
 * Credit cost per task (addendum "Limits and money"). One table; the embedded service
 * lets operators override entries with X3D_ENGINE_COSTS (see cost-overrides.ts). The studio's
 * forms show a task's cost and what the balance lacks from here.
 */
import { MODEL_INFO, MODELS, type CostTriple, type Model, type RequestType, type Resolution } from "./options";

export type { CostTriple } from "./options";

export type TaskKind = "image-to-3d" | "split" | "depth" | "segmentation";

export interface CostTable {
  /** Key: `${model}:${resolution}`. */
  imageTo3d: Record<string, CostTriple>;
  split: number;
  depth: number;
  segmentation: number;
}

/** The image-to-3D prices of the model matrix (lib/x3d/options MODEL_INFO), keyed `${model}:${resolution}`. */
export function matrixPrices(info: typeof MODEL_INFO = MODEL_INFO): Record<string, CostTriple> {
  const out: Record<string, CostTriple> = {};
  for (const model of MODELS)
    for (const r of info[model].resolutions) {
      const price = info[model].prices[r];
      if (price) out[`${model}:${r}`] = price;
    }
  return out;
}

export const DEFAULT_COSTS: CostTable = { imageTo3d: matrixPrices(), split: 20, depth: 20, segmentation: 20 };

/** Credits one image-to-3D task costs; undefined for a model/resolution pair that does not exist. */
export function imageTo3dCost(table: CostTable, model: Model, resolution: Resolution, requestType: RequestType): number | undefined {
  return table.imageTo3d[`${model}:${resolution}`]?.[requestType - 1];
}

/** A task as far as its price depends on it: image-to-3D and texture by model, resolution and request type. */
export type CostSpec =
  | { kind: "image-to-3d" | "texture"; model: Model; resolution: Resolution; request_type: RequestType }
  | { kind: "split" | "depth" | "segmentation" };

/**
 * Credits a task costs; undefined for a model/resolution pair the table does not list. Read
 * from the table as each endpoint's own `cost` rule reads it (costs.test.ts holds the two
 * equal), so that a form's page does not load every endpoint's spec to show one price.
 */
export function taskCost(spec: CostSpec, table: CostTable = DEFAULT_COSTS): number | undefined {
  if (spec.kind === "image-to-3d" || spec.kind === "texture") return imageTo3dCost(table, spec.model, spec.resolution, spec.request_type);
  return table[spec.kind];
}

/** Credits missing to pay for a task (0 when the balance covers it or is unknown). */
export function shortfall(balance: number | undefined, cost: number | undefined): number {
  return balance === undefined || cost === undefined ? 0 : Math.max(0, cost - balance);
}
