import type { Metadata } from "next";
import { TextureTaskFormInWorkspace } from "@/components/forms/texture-task-form";
import { Workspace } from "@/components/workspace/workspace";
import { requireUser } from "@/app/(studio)/require-user";
import { costTable } from "@/lib/tasks/create/create-task";
import { meshResults } from "@/lib/tasks/create/resolve-inputs";
import { prefillParams, type SearchParams } from "@/lib/tasks/create/search-params";
import { FORM_MESH_TYPES, workspaceStart } from "@/lib/tasks/create/workspace";
import { createTextureTaskAction } from "./actions";

export const metadata: Metadata = { title: "Texture a model · x3d studio" };

export default async function NewTextureTaskPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const [start, results] = await Promise.all([
    workspaceStart(user.id, "texture", await prefillParams(searchParams)),
    meshResults(user.id, FORM_MESH_TYPES.texture),
  ]);
  return (
    <Workspace
      kind="texture"
      title="Texture a model"
      intro="Paint an existing GLB model from an image."
      start={start}
      form={<TextureTaskFormInWorkspace />}
      action={createTextureTaskAction}
      costs={costTable()}
      results={results}
    />
  );
}
