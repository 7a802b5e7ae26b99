"use client";

import { canTexture, imageOptionProblems, pbrApplies, recommendedFaces, resolutionsFor, shadingApplies } from "@/lib/x3d/form-logic";
import { MODELS } from "@/lib/x3d/options";
import { intChoiceOptions } from "@/lib/x3d/spec/form";
import { SUBMIT_TASK_SPEC } from "@/lib/x3d/spec/submit-task";
import { NumberField, SelectField } from "./fields";
import type { ImageOptionsEditor } from "./use-image-options";

const { face: FACE, format: FORMAT, model: MODEL } = SUBMIT_TASK_SPEC.fields;
const FORMAT_OPTIONS = intChoiceOptions(FORMAT, (l) => l.toUpperCase());
const SHADING_OPTIONS = Array.from({ length: 11 }, (_, i) => ({ value: i / 10, label: (i / 10).toFixed(1) }));
const ON_OFF = [
  { value: 1 as const, label: "On" },
  { value: 0 as const, label: "Off" },
];
const number = new Intl.NumberFormat("en-US");

interface Props {
  editor: ImageOptionsEditor;
  /** Texturing an existing mesh: request_type 2, only models that can texture, no face count. */
  texture?: boolean;
  errors: Record<string, string>;
  clearError: (...names: string[]) => void;
}

/**
 * The options of image-to-3D and texture tasks, following the matrix as the user edits: the
 * resolution list follows the model, pbr and shading appear only where they apply, models that
 * cannot texture are refused for texturing, and the face count follows the resolution's
 * recommendation until the user types their own, range-checked as typed.
 */
export function ImageOptionsFields({ editor, texture = false, errors, clearError }: Props) {
  const { options, faceText } = editor.draft;
  const problems = imageOptionProblems(options);
  const live = (name: string) => errors[name] ?? (name === "face" && faceText.trim() === "" ? undefined : problems[name]);
  const models = MODELS.map((m) => ({
    value: m,
    label: texture && !canTexture(m) ? `${MODEL.labels[m]} (cannot texture)` : MODEL.labels[m],
    disabled: texture && !canTexture(m),
  }));
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {!texture && (
        <SelectField
          label="Make"
          name="request_type"
          value={options.request_type}
          options={[
            { value: 3, label: "Geometry and texture" },
            { value: 1, label: "Geometry only" },
          ]}
          onChange={(v) => {
            editor.set("request_type", v);
            clearError("request_type");
          }}
          error={errors.request_type}
        />
      )}
      <SelectField
        label="Model"
        name="model"
        value={options.model}
        options={models}
        onChange={(m) => {
          editor.setModel(m);
          clearError("model", "resolution");
        }}
        hint={texture ? "Texturing works with v1.5, v3.0 and scene portrait v1.5." : undefined}
        error={live("model")}
      />
      <SelectField
        label="Resolution"
        name="resolution"
        value={options.resolution}
        options={resolutionsFor(options.model).map((r) => ({ value: r, label: r }))}
        onChange={(r) => {
          editor.setResolution(r);
          clearError("resolution", "face");
        }}
        error={live("resolution")}
      />
      {pbrApplies(options.model, options.request_type) && (
        <SelectField
          label="PBR materials"
          name="pbr"
          value={options.pbr}
          options={ON_OFF}
          onChange={(v) => editor.set("pbr", v)}
          error={errors.pbr}
        />
      )}
      {shadingApplies(options.model) && (
        <SelectField
          label="De-shading strength"
          name="shading"
          value={options.shading}
          options={SHADING_OPTIONS}
          onChange={(v) => editor.set("shading", v)}
          hint="0.0 keeps the photo's lighting; 1.0 removes it."
          error={live("shading")}
        />
      )}
      {!texture && (
        <NumberField
          label="Face count"
          name="face"
          value={faceText}
          onChange={(v) => {
            editor.setFaceText(v);
            clearError("face");
          }}
          min={FACE.min}
          max={FACE.max}
          step={1}
          hint={`Recommended for ${options.resolution}: ${number.format(recommendedFaces(options.resolution))}. From ${number.format(FACE.min)} to ${number.format(FACE.max)}.`}
          error={live("face")}
        />
      )}
      <SelectField
        label="Format"
        name="format"
        value={options.format}
        options={FORMAT_OPTIONS}
        onChange={(v) => editor.set("format", v)}
        error={errors.format}
      />
      <SelectField
        label="Remove background"
        name="rmbg"
        value={options.rmbg}
        options={ON_OFF}
        onChange={(v) => editor.set("rmbg", v)}
        error={errors.rmbg}
      />
    </div>
  );
}
