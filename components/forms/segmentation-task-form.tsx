"use client";

import { Shapes } from "lucide-react";
import { useState } from "react";
import type { MeshPrefill, MeshResultOption } from "@/lib/tasks/create/form-props";
import { taskCost, type CostTable } from "@/lib/x3d/costs";
import { SEGMENTATION_SPEC } from "@/lib/x3d/endpoints/segmentation";
import { choiceOptions, intChoiceOptions } from "@/lib/x3d/forms/controls";
import { MESH_TYPES, type SEG_LEVELS, type SEGMENTATION_FORMATS } from "@/lib/x3d/options";
import { bindChoices } from "./bind-choices";
import { FormSection } from "./fields";
import { FormFooter } from "./form-footer";
import { MESH_HINT } from "./hints";
import { MeshSourceField } from "./mesh-source-field";
import { useCreateAction, type CreateAction } from "./use-create-action";
import { useWorkspaceForm } from "@/components/workspace/workspace-form";

type Format = keyof typeof SEGMENTATION_FORMATS;
type Level = (typeof SEG_LEVELS)[number];
const LEVEL_OPTIONS = choiceOptions(SEGMENTATION_SPEC.fields.seg_level);
const FORMAT_OPTIONS = intChoiceOptions(SEGMENTATION_SPEC.fields.format, (l) => l.toUpperCase());

interface Props {
  action: CreateAction;
  costs: CostTable;
  results: readonly MeshResultOption[];
  initial: { options: { seg_level: Level; format: Format }; mesh?: MeshPrefill | undefined };
}

/** Segment a model into labelled parts. */
function SegmentationTaskForm({ action, costs, results, initial }: Props) {
  const { errors, message, pending, submit, clearError } = useCreateAction(action);
  const [options, setOptions] = useState(initial.options);
  const choice = bindChoices(
    options,
    (key, value) => {
      setOptions((o) => ({ ...o, [key]: value }));
      clearError(key);
    },
    errors,
  );
  return (
    <form onSubmit={submit} noValidate className="w-full max-w-panel space-y-5">
      <FormSection title="Input">
        <MeshSourceField
          types={MESH_TYPES}
          hint={MESH_HINT}
          results={results}
          initial={initial.mesh}
          errors={errors}
          clearError={clearError}
        />
      </FormSection>
      <FormSection title="Segmentation">
        {choice("seg_level", "Level", LEVEL_OPTIONS, { hint: SEGMENTATION_SPEC.fields.seg_level.doc })}
      </FormSection>
      <FormSection title="Output">{choice("format", "Format", FORMAT_OPTIONS)}</FormSection>
      <FormFooter cost={taskCost({ kind: "segmentation" }, costs)} message={message} pending={pending} icon={<Shapes aria-hidden />}>
        Segment the model
      </FormFooter>
    </form>
  );
}

/** The form inside its workspace, which hands it its action, costs, earlier results and start. */
export function SegmentationTaskFormInWorkspace() {
  const form = useWorkspaceForm("segmentation");
  return <SegmentationTaskForm action={form.action} costs={form.costs} results={form.results} initial={form.start.initial} />;
}
