import type { Metadata } from "next";
import { SegmentationTaskFormInWorkspace } from "@/components/forms/segmentation-task-form";
import { Workspace } from "@/components/workspace/workspace";
import { requireUser } from "@/app/(studio)/require-user";
import { costTable } from "@/lib/tasks/create/create-task";
import { meshResults } from "@/lib/tasks/create/resolve-inputs";
import { prefillParams, type SearchParams } from "@/lib/tasks/create/search-params";
import { FORM_MESH_TYPES, workspaceStart } from "@/lib/tasks/create/workspace";
import { createSegmentationTaskAction, lookUpSegmentationTaskAction } from "./actions";

export const metadata: Metadata = { title: "Segmentation · x3d studio" };

export default async function NewSegmentationTaskPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const [start, results] = await Promise.all([
    workspaceStart(user.id, "segmentation", await prefillParams(searchParams)),
    meshResults(user.id, FORM_MESH_TYPES.segmentation),
  ]);
  return (
    <Workspace
      kind="segmentation"
      title="Segmentation"
      intro="Label a model's parts."
      start={start}
      form={<SegmentationTaskFormInWorkspace />}
      action={createSegmentationTaskAction}
      lookUp={lookUpSegmentationTaskAction}
      costs={costTable()}
      results={results}
    />
  );
}
