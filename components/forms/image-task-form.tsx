"use client";

import { Box, ImageUp } from "lucide-react";
import { useState } from "react";
import { uploadedId, useUploads } from "@/components/upload/use-uploads";
import { ViewSlots } from "@/components/upload/view-slots";
import type { UploadInfo } from "@/lib/upload/check";
import { taskCost, type CostTable } from "@/lib/x3d/costs";
import type { ImageOptions } from "@/lib/x3d/forms/image";
import type { ViewSlots as Slots } from "@/lib/x3d/forms/views";
import { VIEWS } from "@/lib/x3d/options";
import { ChoiceField, type Choice } from "./choice-field";
import { FormSection } from "./fields";
import { FormFooter } from "./form-footer";
import { ImageOptionsFields } from "./image-options-fields";
import { IMAGE_HINT } from "./hints";
import { UploadedFileField } from "./uploaded-file-field";
import { useCreateAction, type CreateAction } from "./use-create-action";
import { useImageOptions } from "./use-image-options";
import { useWorkspaceForm } from "@/components/workspace/workspace-form";

interface Props {
  action: CreateAction;
  costs: CostTable;
  initial: { options: ImageOptions; image?: UploadInfo | undefined; views?: Slots<UploadInfo> | undefined };
}

const MODES: Choice<"single" | "multi">[] = [
  { value: "single", label: "One image" },
  { value: "multi", label: "Several views" },
];

/** Image to 3D: one image, or front/back/left/right views, and the model's options. */
function ImageTaskForm({ action, costs, initial }: Props) {
  const { errors, message, pending, submit, clearError } = useCreateAction(action);
  const editor = useImageOptions(initial.options);
  const [mode, setMode] = useState<"single" | "multi">(initial.views ? "multi" : "single");
  const single = useUploads({ image: initial.image }, "image");
  const views = useUploads(
    {
      front: initial.views?.front ?? undefined,
      back: initial.views?.back ?? undefined,
      left: initial.views?.left ?? undefined,
      right: initial.views?.right ?? undefined,
    },
    "image",
  );
  const { options } = editor.draft;
  const cost = taskCost({ kind: "image-to-3d", ...options }, costs);
  const imageError = errors.images ?? errors.multi_images ?? errors.multi_images_bit;

  return (
    <form onSubmit={submit} noValidate className="w-full max-w-panel space-y-5">
      <FormSection title="Input">
        <ChoiceField label="Input" hideLabel name="mode" value={mode} options={MODES} onChange={setMode} />
        {mode === "single" ? (
          <UploadedFileField
            name="images"
            uploads={single}
            slot="image"
            label="Image"
            hint={IMAGE_HINT}
            error={imageError}
            icon={<ImageUp />}
            testId="image-drop"
            clearError={clearError}
          />
        ) : (
          <>
            {VIEWS.map((v) => (
              <input key={v} type="hidden" name={`view_${v}`} value={uploadedId(views.slots[v]) ?? ""} />
            ))}
            <ViewSlots
              slots={views.slots}
              hint={IMAGE_HINT}
              onFile={(view, file) => {
                views.start(view, file);
                clearError("images", "multi_images", "multi_images_bit");
              }}
              onClear={views.clear}
              onSwap={views.swap}
              error={imageError}
            />
          </>
        )}
      </FormSection>
      <ImageOptionsFields editor={editor} costs={costs} errors={errors} clearError={clearError} />
      <FormFooter cost={cost} message={message} pending={pending} icon={<Box aria-hidden />}>
        Create 3D model
      </FormFooter>
    </form>
  );
}

/** The form inside its workspace, which hands it its action, costs and start. */
export function ImageTaskFormInWorkspace() {
  const form = useWorkspaceForm("image-to-3d");
  return <ImageTaskForm action={form.action} costs={form.costs} initial={form.start.initial} />;
}
