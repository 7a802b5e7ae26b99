import type { Metadata } from "next";
import { ImageTaskFormInWorkspace } from "@/components/forms/image-task-form";
import { Workspace } from "@/components/workspace/workspace";
import { requireUser } from "@/app/(studio)/require-user";
import { costTable } from "@/lib/tasks/create/create-task";
import { prefillParams, type SearchParams } from "@/lib/tasks/create/search-params";
import { workspaceStart } from "@/lib/tasks/create/workspace";
import { createImageTaskAction } from "./actions";

export const metadata: Metadata = { title: "Image to 3D · x3d studio" };

/** `?upload=<id>` opens with one of the user's images (the home page's drop zone sends a dropped image here). */
export default async function NewImageTaskPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const start = await workspaceStart(user.id, "image-to-3d", await prefillParams(searchParams));
  return (
    <Workspace
      kind="image-to-3d"
      title="Image to 3D"
      intro="One photo, or front, back, left and right views, to a 3D model."
      start={start}
      form={<ImageTaskFormInWorkspace />}
      action={createImageTaskAction}
      costs={costTable()}
    />
  );
}
