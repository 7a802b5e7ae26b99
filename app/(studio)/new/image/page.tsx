import type { Metadata } from "next";
import { ImageTaskForm } from "@/components/forms/image-task-form";
import { FormPage } from "@/components/forms/form-page";
import { requireUser } from "@/lib/session";
import { initialImageOptions } from "@/lib/tasks/create-form-initial";
import { prefillFor } from "@/lib/tasks/create-prefill";
import { costTable } from "@/lib/tasks/create-task";
import { prefillParams, type SearchParams } from "@/lib/tasks/search-params";
import { createImageTaskAction } from "./actions";

export const metadata: Metadata = { title: "Image to 3D · x3d studio" };

export default async function NewImageTaskPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const { again } = await prefillParams(searchParams);
  const prefill = await prefillFor(user.id, { kind: "image-to-3d", again });
  const initial = {
    options: initialImageOptions(prefill.options),
    image: prefill.image?.source === "upload" ? prefill.image.upload : undefined,
    views: prefill.views,
  };
  return (
    <FormPage title="Image to 3D" intro="One photo, or front, back, left and right views, to a 3D model." notice={prefill.notice}>
      <ImageTaskForm action={createImageTaskAction} costs={costTable()} initial={initial} />
    </FormPage>
  );
}
