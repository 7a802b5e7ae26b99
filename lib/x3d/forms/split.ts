/**
 * The split form by split/create-task's spec: its starting values, the fields that apply to
 * the model and joint, and what is sent. Pure; safe to import from client components.
 */
import type { ValuesOf } from "../endpoints/field";
import { SPLIT_SPEC, type SplitSpec } from "../endpoints/split";
import { formStart, formWire, shownFields } from "./endpoint-form";

export type SplitOptions = ValuesOf<SplitSpec["fields"]>;

export type WireSplitOptions = Pick<SplitOptions, "model" | "format"> & Partial<Omit<SplitOptions, "model" | "format">>;

export interface SplitFields {
  part: boolean;
  joint: boolean;
  merge: boolean;
  level: boolean;
}

export const SPLIT_FORM_DEFAULTS: SplitOptions = formStart(SPLIT_SPEC);

/** Split fields that apply: part, joint and merge (with a joint) for characters; level for general models. */
export function splitFieldsFor(model: SplitOptions["model"], joint: SplitOptions["joint"]): SplitFields {
  return shownFields(SPLIT_SPEC, ["part", "joint", "merge", "level"], { ...SPLIT_FORM_DEFAULTS, model, joint });
}

/** The split options to send: only the fields that apply to the model and joint. */
export function wireSplitOptions(o: SplitOptions): WireSplitOptions {
  return formWire(SPLIT_SPEC, o) as WireSplitOptions;
}
