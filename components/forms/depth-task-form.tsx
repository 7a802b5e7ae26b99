"use client";

import { useState } from "react";
import type { ImagePrefill } from "@/lib/tasks/create-form-types";
import type { CostTable } from "@/lib/x3d/costs";
import { depthFieldsFor, depthOptionProblems, taskCost, type DepthOptions } from "@/lib/x3d/form-logic";
import { DEPTH_SPEC } from "@/lib/x3d/spec/depth";
import { inputStep, intChoiceOptions, rangeHint } from "@/lib/x3d/spec/form";
import { CostSummary } from "./cost-summary";
import { bindSelects, FormAlert, NumberField, SubmitButton } from "./fields";
import { ImageSourceField } from "./image-source-field";
import { useCreateAction, type CreateAction } from "./use-create-action";

interface Props {
  action: CreateAction;
  costs: CostTable;
  initial: { options: DepthOptions; image?: ImagePrefill | undefined };
}

type NumberKey = "height_relief" | "degree_rmbg" | "thickness_base" | "width";
const F = DEPTH_SPEC.fields;
const FORMAT_OPTIONS = intChoiceOptions(F.format, (l) => l.toUpperCase());

/** A depth map or printable relief from an image; the fields follow background removal (rmbg). */
export function DepthTaskForm({ action, costs, initial }: Props) {
  const { errors, message, pending, submit, clearError } = useCreateAction(action);
  const [options, setOptions] = useState(initial.options);
  const [texts, setTexts] = useState<Record<NumberKey, string>>({
    height_relief: String(initial.options.height_relief),
    degree_rmbg: String(initial.options.degree_rmbg),
    thickness_base: String(initial.options.thickness_base),
    width: String(initial.options.width),
  });
  const set = <K extends keyof DepthOptions>(key: K, value: DepthOptions[K]) => {
    setOptions((o) => ({ ...o, [key]: value }));
    clearError(key);
  };
  const setNumber = (key: NumberKey, text: string) => {
    setTexts((t) => ({ ...t, [key]: text }));
    set(key, text.trim() === "" ? Number.NaN : Number(text));
  };
  const fields = depthFieldsFor(options.rmbg);
  const problems = depthOptionProblems(options);
  const error = (key: NumberKey) => errors[key] ?? (texts[key].trim() === "" ? undefined : problems[key]);
  const select = bindSelects(options, set, errors);
  const number = (key: NumberKey, label: string) => (
    <NumberField
      label={label}
      name={key}
      value={texts[key]}
      onChange={(v) => setNumber(key, v)}
      min={F[key].min}
      max={F[key].max}
      step={inputStep(F[key])}
      hint={rangeHint(F[key])}
      error={error(key)}
    />
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <ImageSourceField initial={initial.image} errors={errors} clearError={clearError} />
      <div className="grid gap-4 sm:grid-cols-2">
        {select("model_type", "Quality", [
          { value: "pro", label: "Pro (2K)" },
          { value: "base", label: "Base (1K)" },
        ])}
        {select("format", "Format", FORMAT_OPTIONS)}
        {number("height_relief", "Relief height")}
        {number("width", "Width (mm)")}
        {select("rmbg", "Remove background", [
          { value: 1, label: "On" },
          { value: 0, label: "Off" },
        ])}
        {fields.degree_rmbg && number("degree_rmbg", "Background removal strength")}
        {fields.shape_base &&
          select("shape_base", "Base shape", [
            { value: 0, label: "Square" },
            { value: 1, label: "Circle" },
          ])}
        {fields.thickness_base && number("thickness_base", "Base thickness (mm)")}
        {select("sculpmode", "Relief", [
          { value: 0, label: "Emboss" },
          { value: 1, label: "Engrave" },
        ])}
      </div>
      <CostSummary cost={taskCost({ kind: "depth" }, costs)} />
      <FormAlert message={message} />
      <SubmitButton pending={pending}>Make the depth map</SubmitButton>
    </form>
  );
}
