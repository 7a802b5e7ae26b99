import type { Metadata } from "next";
import { FormPage } from "@/components/forms/form-page";
import { TextureTaskForm } from "@/components/forms/texture-task-form";
import { requireUser } from "@/lib/session";
import { initialImageOptions } from "@/lib/tasks/create-form-initial";
import { prefillFor } from "@/lib/tasks/create-prefill";
import { costTable } from "@/lib/tasks/create-task";
import { meshResults } from "@/lib/tasks/inputs";
import { prefillParams, type SearchParams } from "@/lib/tasks/search-params";
import { createTextureTaskAction } from "./actions";

export const metadata: Metadata = { title: "Texture a model · x3d studio" };

export default async function NewTextureTaskPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const params = await prefillParams(searchParams);
  const [prefill, results] = await Promise.all([
    prefillFor(user.id, { kind: "texture", ...params, meshTypes: ["glb"] }),
    meshResults(user.id, ["glb"]),
  ]);
  const initial = {
    options: initialImageOptions(prefill.options, true),
    image: prefill.image?.source === "upload" ? prefill.image.upload : undefined,
    mesh: prefill.mesh,
  };
  return (
    <FormPage title="Texture a model" intro="Paint an existing GLB model from an image." notice={prefill.notice}>
      <TextureTaskForm action={createTextureTaskAction} costs={costTable()} results={results} initial={initial} />
    </FormPage>
  );
}
