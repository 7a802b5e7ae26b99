"use client";

import { ImageUp, Paintbrush } from "lucide-react";
import { useUploads } from "@/components/upload/use-uploads";
import type { MeshPrefill, MeshResultOption } from "@/lib/tasks/create/form-props";
import type { UploadInfo } from "@/lib/upload/check";
import { taskCost, type CostTable } from "@/lib/x3d/costs";
import type { ImageOptions } from "@/lib/x3d/forms/image";
import { FormSection } from "./fields";
import { FormFooter } from "./form-footer";
import { GLB_HINT, IMAGE_HINT } from "./hints";
import { ImageOptionsFields } from "./image-options-fields";
import { MeshSourceField } from "./mesh-source-field";
import { UploadedFileField } from "./uploaded-file-field";
import { useCreateAction, type CreateAction } from "./use-create-action";
import { useImageOptions } from "./use-image-options";
import { useWorkspaceForm } from "@/components/workspace/workspace-form";

interface Props {
  action: CreateAction;
  costs: CostTable;
  results: readonly MeshResultOption[];
  initial: { options: ImageOptions; image?: UploadInfo | undefined; mesh?: MeshPrefill | undefined };
}

const GLB = ["glb"] as const;

/** Texture an existing GLB (request_type 2) from an image, with a model that can texture. */
function TextureTaskForm({ action, costs, results, initial }: Props) {
  const { errors, message, pending, submit, clearError } = useCreateAction(action);
  const editor = useImageOptions(initial.options);
  const image = useUploads({ image: initial.image }, "image");
  const cost = taskCost({ kind: "texture", ...editor.draft.options }, costs);
  return (
    <form onSubmit={submit} noValidate className="w-full max-w-panel space-y-5">
      <FormSection title="Input">
        <MeshSourceField types={GLB} hint={GLB_HINT} results={results} initial={initial.mesh} errors={errors} clearError={clearError} />
        <UploadedFileField
          name="images"
          uploads={image}
          slot="image"
          label="Image"
          hint={`The look to paint on the model. ${IMAGE_HINT}`}
          error={errors.images}
          icon={<ImageUp />}
          testId="image-drop"
          clearError={clearError}
        />
      </FormSection>
      <ImageOptionsFields editor={editor} costs={costs} texture errors={errors} clearError={clearError} />
      <FormFooter cost={cost} message={message} pending={pending} icon={<Paintbrush aria-hidden />}>
        Texture the model
      </FormFooter>
    </form>
  );
}

/** The form inside its workspace, which hands it its action, costs, earlier results and start. */
export function TextureTaskFormInWorkspace() {
  const form = useWorkspaceForm("texture");
  return <TextureTaskForm action={form.action} costs={form.costs} results={form.results} initial={form.start.initial} />;
}
