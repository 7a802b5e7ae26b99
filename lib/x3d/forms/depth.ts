/**
 * The depth form by depth/create-task's spec: its starting values, the fields of the chosen
 * background mode, the problems and what is sent. Pure; safe to import from client components.
 */
import { DEPTH_SPEC, type DepthSpec } from "../endpoints/depth";
import type { FormValuesOf, ValuesOf } from "../endpoints/field";
import { formProblems, formStart, formWire, shownFields } from "./endpoint-form";
import { byField, type Problems } from "./problems";

export interface DepthFields {
  degree_rmbg: boolean;
  shape_base: boolean;
  thickness_base: boolean;
}

/** Options of depth/create-task the studio's form edits (response_format is always url). */
export type DepthOptions = FormValuesOf<DepthSpec["fields"]>;

export type WireDepthOptions = Omit<DepthOptions, "degree_rmbg" | "shape_base" | "thickness_base"> &
  Partial<Pick<DepthOptions, "degree_rmbg" | "shape_base" | "thickness_base">>;

export const DEPTH_FORM_DEFAULTS: DepthOptions = formStart(DEPTH_SPEC);

/** Depth fields that apply: background-removal strength with rmbg=1, base shape and thickness with rmbg=0. */
export function depthFieldsFor(rmbg: 0 | 1): DepthFields {
  return shownFields(DEPTH_SPEC, ["degree_rmbg", "shape_base", "thickness_base"], asDepth({ ...DEPTH_FORM_DEFAULTS, rmbg }));
}

const asDepth = (o: DepthOptions): ValuesOf<DepthSpec["fields"]> => ({ ...o, response_format: "url" });

/** Range and step problems of the depth fields that apply, by wire field name. */
export function depthOptionProblems(o: DepthOptions): Problems {
  return byField(formProblems(DEPTH_SPEC, asDepth(o)));
}

/** The depth options to send: only the fields of the chosen rmbg mode. */
export function wireDepthOptions(o: DepthOptions): WireDepthOptions {
  return formWire(DEPTH_SPEC, asDepth(o)) as WireDepthOptions;
}
