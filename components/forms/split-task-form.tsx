"use client";

import { Scissors } from "lucide-react";
import { useState } from "react";
import type { MeshPrefill, MeshResultOption } from "@/lib/tasks/create/form-props";
import { taskCost, type CostTable } from "@/lib/x3d/costs";
import { SPLIT_SPEC } from "@/lib/x3d/endpoints/split";
import { choiceOptions, intChoiceOptions } from "@/lib/x3d/forms/controls";
import { splitFieldsFor, type SplitOptions } from "@/lib/x3d/forms/split";
import { MESH_TYPES } from "@/lib/x3d/options";
import { bindChoices } from "./bind-choices";
import type { Choice } from "./choice-field";
import { FormSection } from "./fields";
import { FormFooter } from "./form-footer";
import { MESH_HINT } from "./hints";
import { MeshSourceField } from "./mesh-source-field";
import { SwitchField } from "./switch-field";
import { useCreateAction, type CreateAction } from "./use-create-action";
import { useWorkspaceForm } from "@/components/workspace/workspace-form";

interface Props {
  action: CreateAction;
  costs: CostTable;
  results: readonly MeshResultOption[];
  initial: { options: SplitOptions; mesh?: MeshPrefill | undefined };
}

const F = SPLIT_SPEC.fields;
const MODEL_OPTIONS: Choice<SplitOptions["model"]>[] = [
  { value: "character", label: "Character", detail: "Body parts, with joints" },
  { value: "general", label: "General object", detail: "Parts by level of detail" },
];
const FORMAT_OPTIONS = intChoiceOptions(F.format, (l) => l.toUpperCase());
const PART_OPTIONS = choiceOptions(F.part);
const JOINT_OPTIONS = choiceOptions(F.joint);
const LEVEL_OPTIONS = choiceOptions(F.level);
const YES_NO = ["yes", "no"] as const;

/** Split a model for printing: part, joint and merge for characters; level for general models. */
function SplitTaskForm({ action, costs, results, initial }: Props) {
  const { errors, message, pending, submit, clearError } = useCreateAction(action);
  const [options, setOptions] = useState(initial.options);
  const set = <K extends keyof SplitOptions>(key: K, value: SplitOptions[K]) => {
    setOptions((o) => ({ ...o, [key]: value }));
    clearError(key);
  };
  const choice = bindChoices(options, set, errors);
  const fields = splitFieldsFor(options.model, options.joint);
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
      <FormSection title="Split">
        {choice("model", "Split as", MODEL_OPTIONS)}
        {fields.part && choice("part", "Parts", PART_OPTIONS, { columns: 2 })}
        {fields.joint && choice("joint", "Joints", JOINT_OPTIONS, { hint: F.joint.doc })}
        {fields.merge && (
          <SwitchField
            label="Merge connectors with the body"
            name="merge"
            values={YES_NO}
            value={options.merge}
            onChange={(v) => set("merge", v)}
            hint={F.merge.doc}
            error={errors.merge}
          />
        )}
        {fields.level && choice("level", "Level of detail", LEVEL_OPTIONS, { hint: F.level.doc })}
      </FormSection>
      <FormSection title="Output">{choice("format", "Format", FORMAT_OPTIONS, { columns: 3 })}</FormSection>
      <FormFooter cost={taskCost({ kind: "split" }, costs)} message={message} pending={pending} icon={<Scissors aria-hidden />}>
        Split the model
      </FormFooter>
    </form>
  );
}

/** The form inside its workspace, which hands it its action, costs, earlier results and start. */
export function SplitTaskFormInWorkspace() {
  const form = useWorkspaceForm("split");
  return <SplitTaskForm action={form.action} costs={form.costs} results={form.results} initial={form.start.initial} />;
}
