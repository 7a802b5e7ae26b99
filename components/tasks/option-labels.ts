/**
 * Words for a task's options (the Details panel, compare): each option's label and its value as
 * an artist reads it. Safe to import from client components.
 */
import type { StudioTaskKind } from "@/lib/tasks/model/task-types";
import { DEPTH_FORMATS, MESH_FORMATS, MODEL_INFO, SPLIT_PARTS, VIEWS, isModel } from "@/lib/x3d/options";

const OPTION_LABELS: Record<string, string> = {
  request_type: "Produce",
  model: "Model",
  resolution: "Resolution",
  face: "Faces",
  pbr: "PBR materials",
  rmbg: "Remove background",
  shading: "De-shading",
  format: "Format",
  multi_images_bit: "Views",
  mesh_url: "Model URL",
  image_url: "Image URL",
  part: "Parts",
  joint: "Joints",
  merge: "Merge",
  level: "Level",
  seg_level: "Segmentation level",
  model_type: "Quality",
  height_relief: "Relief height",
  degree_rmbg: "Background removal strength",
  shape_base: "Base",
  thickness_base: "Base thickness",
  width: "Width",
  sculpmode: "Sculpting",
};

const REQUEST_TYPES: Record<string, string> = { "1": "Geometry", "2": "Texture", "3": "Geometry and texture" };
const onOff = (v: string) => (v === "1" ? "On" : v === "0" ? "Off" : v);

function formatValue(kind: StudioTaskKind, key: string, raw: unknown): string {
  const v = String(raw);
  switch (key) {
    case "request_type":
      return REQUEST_TYPES[v] ?? v;
    case "model":
      return isModel(v) ? MODEL_INFO[v].label : v;
    case "face":
      return Number.isFinite(Number(v)) ? Number(v).toLocaleString("en-US") : v;
    case "pbr":
    case "rmbg":
      return onOff(v);
    case "format": {
      const table: Record<string, string> = kind === "depth" ? DEPTH_FORMATS : MESH_FORMATS;
      return (table[v] ?? v).toUpperCase();
    }
    case "multi_images_bit":
      return VIEWS.filter((_, i) => v[i] === "1").join(", ") || v;
    case "part":
      return v in SPLIT_PARTS ? SPLIT_PARTS[v as keyof typeof SPLIT_PARTS] : v;
    case "shape_base":
      return v === "1" ? "Circle" : v === "0" ? "Square" : v;
    case "sculpmode":
      return v === "1" ? "Engrave" : v === "0" ? "Emboss" : v;
    case "thickness_base":
    case "width":
      return `${v} mm`;
    default:
      return typeof raw === "object" && raw !== null ? JSON.stringify(raw) : v;
  }
}

/** The options of a task as label/value pairs, in a stable order; empty values and wire-only fields left out. */
export function describeOptions(kind: StudioTaskKind, options: Record<string, unknown>): [string, string][] {
  const order = Object.keys(OPTION_LABELS);
  return Object.entries(options)
    .filter(([key, value]) => value !== undefined && value !== null && value !== "" && key !== "response_format")
    .sort(([a], [b]) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99))
    .map(([key, value]) => [OPTION_LABELS[key] ?? key.replaceAll("_", " "), formatValue(kind, key, value)]);
}
