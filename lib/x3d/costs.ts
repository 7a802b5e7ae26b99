/**
 * Credit cost per task (addendum "Limits and money"). One table; the embedded service
 * lets operators override entries with X3D_ENGINE_COSTS (see cost-overrides.ts).
 */
import type { Model, RequestType, Resolution } from "./options";

/** [request_type 1, 2, 3] */
export type CostTriple = readonly [number, number, number];

export type TaskKind = "image-to-3d" | "split" | "depth" | "segmentation";

export interface CostTable {
  /** Key: `${model}:${resolution}`. */
  imageTo3d: Record<string, CostTriple>;
  split: number;
  depth: number;
  segmentation: number;
}

const standard: CostTriple = [40, 50, 50];
const pro: CostTriple = [60, 70, 70];

export const DEFAULT_COSTS: CostTable = {
  imageTo3d: {
    "x3dv1.5:512": [5, 15, 15],
    "x3dv1.5:1024": [10, 20, 20],
    "x3dv1.5:1536": standard,
    "x3dv1.5:1536pro": pro,
    "x3dv2.0:1536": standard,
    "x3dv2.0:1536pro": pro,
    "x3dv2.1:1536fast": standard,
    "x3dv2.1:1536pro": pro,
    "x3dv3.0:2048quality": [80, 90, 90],
    "x3dv3.0:2048master": [100, 110, 110],
    "scene-portraitv1.5:1536": standard,
    "scene-portraitv2.0:1536pro": standard,
    "scene-portraitv2.1:1536profast": standard,
    "scene-portraitv2.1:1536pro": standard,
  },
  split: 20,
  depth: 20,
  segmentation: 20,
};

/** Credits one image-to-3D task costs; undefined for a model/resolution pair that does not exist. */
export function imageTo3dCost(table: CostTable, model: Model, resolution: Resolution, requestType: RequestType): number | undefined {
  return table.imageTo3d[`${model}:${resolution}`]?.[requestType - 1];
}
