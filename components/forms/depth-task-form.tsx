"use client";

import { Mountain } from "lucide-react";
import { useState } from "react";
import type { ImagePrefill } from "@/lib/tasks/create/form-props";
import { taskCost, type CostTable } from "@/lib/x3d/costs";
import { DEPTH_SPEC } from "@/lib/x3d/endpoints/depth";
import { inputStep, intChoiceOptions } from "@/lib/x3d/forms/controls";
import { depthFieldsFor, depthOptionProblems, type DepthOptions } from "@/lib/x3d/forms/depth";
import { MESH_FORMATS } from "@/lib/x3d/options";
import { bindChoices } from "./bind-choices";
import type { Choice } from "./choice-field";
import { FormSection } from "./fields";
import { FormFooter } from "./form-footer";
import { ImageSourceField } from "./image-source-field";
import { RangeField } from "./range-field";
import { SwitchField } from "./switch-field";
import { useCreateAction, type CreateAction } from "./use-create-action";
import { useWorkspaceForm } from "@/components/workspace/workspace-form";

interface Props {
  action: CreateAction;
  costs: CostTable;
  initial: { options: DepthOptions; image?: ImagePrefill | undefined };
}

type NumberKey = "height_relief" | "degree_rmbg" | "thickness_base" | "width";
const F = DEPTH_SPEC.fields;
const MESH_NAMES: readonly string[] = Object.values(MESH_FORMATS);
/** Each format says what it holds: a printable relief (a mesh format) or a depth image. */
const FORMAT_OPTIONS = intChoiceOptions(F.format, (l) => l.toUpperCase()).map((o) => ({
  ...o,
  detail: MESH_NAMES.includes(F.format.values[o.value]) ? "Relief" : "Depth image",
}));
const QUALITY_OPTIONS: Choice<DepthOptions["model_type"]>[] = [
  { value: "pro", label: "Pro", detail: "2K detail" },
  { value: "base", label: "Base", detail: "1K detail" },
];
const SCULPT_OPTIONS: Choice<DepthOptions["sculpmode"]>[] = [
  { value: 0, label: "Emboss" },
  { value: 1, label: "Engrave" },
];
const SHAPE_OPTIONS: Choice<DepthOptions["shape_base"]>[] = [
  { value: 0, label: "Square" },
  { value: 1, label: "Circle" },
];
const ON_OFF = [1, 0] as const;
const placesOf = (step: number) => String(step).split(".")[1]?.length ?? 0;

/** A depth map or printable relief from an image; the fields follow background removal (rmbg). */
function DepthTaskForm({ action, costs, initial }: Props) {
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
  const choice = bindChoices(options, set, errors);
  const range = (key: NumberKey, label: string, unit?: string) => {
    const field = F[key];
    const step = inputStep(field);
    const format = (n: number) => n.toFixed(placesOf(step));
    return (
      <RangeField
        label={label}
        unit={unit}
        name={key}
        text={texts[key]}
        onText={(text) => setNumber(key, text)}
        min={field.min}
        max={field.max}
        step={step}
        mark={{ value: field.default, label: `Default: ${format(field.default)}` }}
        fallback={field.default}
        format={format}
        error={error(key)}
      />
    );
  };

  return (
    <form onSubmit={submit} noValidate className="w-full max-w-panel space-y-5">
      <FormSection title="Input">
        <ImageSourceField initial={initial.image} errors={errors} clearError={clearError} />
      </FormSection>
      <FormSection title="Model">{choice("model_type", "Quality", QUALITY_OPTIONS)}</FormSection>
      <FormSection title="Geometry">
        {choice("sculpmode", "Relief", SCULPT_OPTIONS)}
        {range("width", "Width", "mm")}
        {range("height_relief", "Relief height")}
      </FormSection>
      <FormSection title="Background">
        <SwitchField
          label="Remove background"
          name="rmbg"
          values={ON_OFF}
          value={options.rmbg}
          onChange={(v) => set("rmbg", v)}
          hint={options.rmbg ? "Only the subject is raised." : "The whole image is raised, on a base."}
          error={errors.rmbg}
        />
        {fields.degree_rmbg && range("degree_rmbg", "Background removal strength")}
        {fields.shape_base && choice("shape_base", "Base shape", SHAPE_OPTIONS)}
        {fields.thickness_base && range("thickness_base", "Base thickness", "mm")}
      </FormSection>
      <FormSection title="Output">{choice("format", "Format", FORMAT_OPTIONS, { columns: 3 })}</FormSection>
      <FormFooter cost={taskCost({ kind: "depth" }, costs)} message={message} pending={pending} icon={<Mountain aria-hidden />}>
        Make the depth map
      </FormFooter>
    </form>
  );
}

/** The form inside its workspace, which hands it its action, costs and start. */
export function DepthTaskFormInWorkspace() {
  const form = useWorkspaceForm("depth");
  return <DepthTaskForm action={form.action} costs={form.costs} initial={form.start.initial} />;
}
