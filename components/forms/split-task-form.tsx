"use client";

import { useState } from "react";
import type { MeshPrefill, MeshResultOption } from "@/lib/tasks/create-form-types";
import type { CostTable } from "@/lib/x3d/costs";
import { splitFieldsFor, taskCost, type SplitOptions } from "@/lib/x3d/form-logic";
import { MESH_TYPES } from "@/lib/x3d/options";
import { choiceOptions, intChoiceOptions } from "@/lib/x3d/spec/form";
import { SPLIT_SPEC } from "@/lib/x3d/spec/split";
import { CostSummary } from "./cost-summary";
import { bindSelects, FormAlert, SubmitButton } from "./fields";
import { MESH_HINT } from "./hints";
import { MeshSourceField } from "./mesh-source-field";
import { useCreateAction, type CreateAction } from "./use-create-action";

interface Props {
  action: CreateAction;
  costs: CostTable;
  results: readonly MeshResultOption[];
  initial: { options: SplitOptions; mesh?: MeshPrefill | undefined };
}

const F = SPLIT_SPEC.fields;
const FORMAT_OPTIONS = intChoiceOptions(F.format, (l) => l.toUpperCase());
const PART_OPTIONS = choiceOptions(F.part, (label, value) => `${value}: ${label}`);
const JOINT_OPTIONS = choiceOptions(F.joint);
const LEVEL_OPTIONS = choiceOptions(F.level);

/** Split a model for printing: part, joint and merge for characters; level for general models. */
export function SplitTaskForm({ action, costs, results, initial }: Props) {
  const { errors, message, pending, submit, clearError } = useCreateAction(action);
  const [options, setOptions] = useState(initial.options);
  const set = <K extends keyof SplitOptions>(key: K, value: SplitOptions[K]) => {
    setOptions((o) => ({ ...o, [key]: value }));
    clearError(key);
  };
  const select = bindSelects(options, set, errors);
  const fields = splitFieldsFor(options.model, options.joint);
  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <MeshSourceField
        types={MESH_TYPES}
        hint={MESH_HINT}
        results={results}
        initial={initial.mesh}
        errors={errors}
        clearError={clearError}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {select("model", "Split as", [
          { value: "character", label: "Character" },
          { value: "general", label: "General object" },
        ])}
        {fields.part && select("part", "Parts", PART_OPTIONS)}
        {fields.joint && select("joint", "Joints", JOINT_OPTIONS)}
        {fields.merge &&
          select("merge", "Merge connectors with the body", [
            { value: "yes", label: "Yes" },
            { value: "no", label: "No" },
          ])}
        {fields.level && select("level", "Level of detail", LEVEL_OPTIONS)}
        {select("format", "Format", FORMAT_OPTIONS)}
      </div>
      <CostSummary cost={taskCost({ kind: "split" }, costs)} />
      <FormAlert message={message} />
      <SubmitButton pending={pending}>Split the model</SubmitButton>
    </form>
  );
}
