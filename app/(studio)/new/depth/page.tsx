import type { Metadata } from "next";
import { DepthTaskFormInWorkspace } from "@/components/forms/depth-task-form";
import { Workspace } from "@/components/workspace/workspace";
import { requireUser } from "@/app/(studio)/require-user";
import { costTable } from "@/lib/tasks/create/create-task";
import { prefillParams, type SearchParams } from "@/lib/tasks/create/search-params";
import { workspaceStart } from "@/lib/tasks/create/workspace";
import { createDepthTaskAction } from "./actions";

export const metadata: Metadata = { title: "Depth & relief · x3d studio" };

export default async function NewDepthTaskPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  // A depth task takes an image: `?from=` gives the earlier result's cover.
  const start = await workspaceStart(user.id, "depth", await prefillParams(searchParams));
  return (
    <Workspace
      kind="depth"
      title="Depth & relief"
      intro="A depth map, or a printable relief, from an image."
      start={start}
      form={<DepthTaskFormInWorkspace />}
      action={createDepthTaskAction}
      costs={costTable()}
    />
  );
}
