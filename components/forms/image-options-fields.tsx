"use client";

import { taskCost, type CostTable } from "@/lib/x3d/costs";
import { SUBMIT_TASK_SPEC } from "@/lib/x3d/endpoints/submit-task";
import { intChoiceOptions } from "@/lib/x3d/forms/controls";
import { canTexture, imageOptionProblems, pbrApplies, recommendedFaces, resolutionsFor, shadingApplies } from "@/lib/x3d/forms/image";
import { MODELS, RESOLUTION_INFO, type Model, type RequestType, type Resolution } from "@/lib/x3d/options";
import { ChoiceField, type Choice } from "./choice-field";
import { FormSection } from "./fields";
import { MoreOptions } from "./more-options";
import { RangeField } from "./range-field";
import { SwitchField } from "./switch-field";
import type { ImageOptionsEditor } from "./use-image-options";

const { face: FACE, format: FORMAT, model: MODEL, shading: SHADING } = SUBMIT_TASK_SPEC.fields;
const FORMAT_OPTIONS = intChoiceOptions(FORMAT, (l) => l.toUpperCase());
const MAKE_OPTIONS: Choice<RequestType>[] = [
  { value: 3, label: "Geometry and texture" },
  { value: 1, label: "Geometry only" },
];
const ON_OFF = [1, 0] as const;
/** A face count moves by this much per arrow key on the slider; the exact input takes any whole number. */
const FACE_SLIDER_STEP = 50_000;
const whole = new Intl.NumberFormat("en-US");
const compact = new Intl.NumberFormat("en-US", { notation: "compact" });

/** "15 credits", or "15–70 credits" over several prices; undefined when none is known. */
function credits(prices: readonly (number | undefined)[]): string | undefined {
  const known = prices.filter((p): p is number => p !== undefined);
  if (known.length === 0) return undefined;
  const [low, high] = [Math.min(...known), Math.max(...known)];
  return low === high ? `${low} credits` : `${low}–${high} credits`;
}

interface Props {
  editor: ImageOptionsEditor;
  costs: CostTable;
  /** Texturing an existing mesh: request_type 2, only models that can texture, no face count. */
  texture?: boolean;
  errors: Record<string, string>;
  clearError: (...names: string[]) => void;
}

/**
 * The options of image-to-3D and texture tasks in sections, following the matrix as the user
 * edits: each model with its price range, the resolutions the model offers with their price and
 * detail, pbr and shading only where they apply, models that cannot texture shut for texturing,
 * and the face count following the resolution's recommendation (marked on its slider) until
 * the user sets their own, range-checked as typed.
 */
export function ImageOptionsFields({ editor, costs, texture = false, errors, clearError }: Props) {
  const { options, faceText } = editor.draft;
  const problems = imageOptionProblems(options);
  const live = (name: string) => errors[name] ?? (name === "face" && faceText.trim() === "" ? undefined : problems[name]);
  const kind = texture ? "texture" : "image-to-3d";
  const cost = (model: Model, resolution: Resolution) => taskCost({ kind, model, resolution, request_type: options.request_type }, costs);

  const models: Choice<Model>[] = MODELS.map((m) => {
    const refused = texture && !canTexture(m);
    return {
      value: m,
      label: MODEL.labels[m],
      detail: refused ? "Cannot texture" : credits(resolutionsFor(m).map((r) => cost(m, r))),
      disabled: refused,
    };
  });
  const resolutions: Choice<Resolution>[] = resolutionsFor(options.model).map((r) => ({
    value: r,
    label: r,
    detail: [credits([cost(options.model, r)]), texture ? undefined : `${compact.format(RESOLUTION_INFO[r].faces)} faces`]
      .filter(Boolean)
      .join(" · "),
  }));
  const recommended = recommendedFaces(options.resolution);
  const pbr = pbrApplies(options.model, options.request_type);
  const shading = shadingApplies(options.model);

  return (
    <>
      <FormSection title="Model">
        <ChoiceField
          label="Model"
          hideLabel
          name="model"
          value={options.model}
          options={models}
          columns={2}
          onChange={(m) => {
            editor.setModel(m);
            clearError("model", "resolution");
          }}
          error={live("model")}
        />
        <ChoiceField
          label="Resolution"
          name="resolution"
          value={options.resolution}
          options={resolutions}
          columns={resolutions.length > 2 ? 2 : undefined}
          onChange={(r) => {
            editor.setResolution(r);
            clearError("resolution", "face");
          }}
          error={live("resolution")}
        />
      </FormSection>

      {!texture && (
        <FormSection title="Geometry">
          <RangeField
            label="Face count"
            name="face"
            text={faceText}
            onText={(text) => {
              editor.setFaceText(text);
              clearError("face");
            }}
            min={FACE.min}
            max={FACE.max}
            step={1}
            sliderStep={FACE_SLIDER_STEP}
            mark={{ value: recommended, label: `Recommended for ${options.resolution}: ${whole.format(recommended)}` }}
            fallback={recommended}
            format={(n) => whole.format(n)}
            hint={
              <>
                Recommended for {options.resolution}: {whole.format(recommended)}, marked on the track.
                {options.face !== recommended && (
                  <button
                    type="button"
                    className="ml-1 rounded text-primary underline-offset-2 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                    onClick={() => {
                      editor.setFaceText(String(recommended));
                      clearError("face");
                    }}
                  >
                    Use {whole.format(recommended)}
                  </button>
                )}
              </>
            }
            error={live("face")}
          />
        </FormSection>
      )}

      <FormSection title="Output">
        {!texture && (
          <ChoiceField
            label="Make"
            name="request_type"
            value={options.request_type}
            options={MAKE_OPTIONS}
            onChange={(v) => {
              editor.set("request_type", v);
              clearError("request_type");
            }}
            error={errors.request_type}
          />
        )}
        {pbr && (
          <SwitchField
            label="PBR materials"
            name="pbr"
            values={ON_OFF}
            value={options.pbr}
            onChange={(v) => editor.set("pbr", v)}
            hint="Metal and roughness maps, so the surface reacts to light."
            error={errors.pbr}
          />
        )}
        <ChoiceField
          label="Format"
          name="format"
          value={options.format}
          options={FORMAT_OPTIONS}
          columns={3}
          onChange={(v) => editor.set("format", v)}
          error={errors.format}
        />
      </FormSection>

      <MoreOptions
        summary={[options.rmbg ? "Background removed" : "Background kept", shading && `de-shading ${options.shading.toFixed(1)}`]
          .filter(Boolean)
          .join(" · ")}
        hasError={!!(errors.rmbg ?? (shading ? live("shading") : undefined))}
      >
        <SwitchField
          label="Remove background"
          name="rmbg"
          values={ON_OFF}
          value={options.rmbg}
          onChange={(v) => editor.set("rmbg", v)}
          hint="Cut the subject out of the photo first."
          error={errors.rmbg}
        />
        {shading && (
          <RangeField
            label="De-shading strength"
            name="shading"
            exact={false}
            text={String(options.shading)}
            onText={(text) => editor.set("shading", Number(text))}
            min={SHADING.min}
            max={SHADING.max}
            step={SHADING.step}
            mark={{ value: SHADING.default, label: `Default: ${SHADING.default.toFixed(1)}` }}
            fallback={SHADING.default}
            format={(n) => n.toFixed(1)}
            hint="0.0 keeps the photo's lighting; 1.0 removes it."
            error={live("shading")}
          />
        )}
      </MoreOptions>
    </>
  );
}
