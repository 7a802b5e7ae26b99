import type { Metadata } from "next";
import { FormPage } from "@/components/forms/form-page";
import { SegmentationLookupForm } from "@/components/forms/segmentation-lookup-form";
import { SegmentationTaskForm } from "@/components/forms/segmentation-task-form";
import { requireUser } from "@/lib/session";
import { initialSegmentationOptions } from "@/lib/tasks/create-form-initial";
import { prefillFor } from "@/lib/tasks/create-prefill";
import { costTable } from "@/lib/tasks/create-task";
import { meshResults } from "@/lib/tasks/inputs";
import { prefillParams, type SearchParams } from "@/lib/tasks/search-params";
import { MESH_TYPES } from "@/lib/x3d/options";
import { createSegmentationTaskAction, lookUpSegmentationTaskAction } from "./actions";

export const metadata: Metadata = { title: "Segmentation · x3d studio" };

export default async function NewSegmentationTaskPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const params = await prefillParams(searchParams);
  const [prefill, results] = await Promise.all([
    prefillFor(user.id, { kind: "segmentation", ...params, meshTypes: MESH_TYPES }),
    meshResults(user.id, MESH_TYPES),
  ]);
  const initial = { options: initialSegmentationOptions(prefill.options), mesh: prefill.mesh };
  return (
    <FormPage title="Segmentation" intro="Label a model's parts." notice={prefill.notice}>
      <SegmentationTaskForm action={createSegmentationTaskAction} costs={costTable()} results={results} initial={initial} />
      <section className="space-y-2 border-t border-border pt-6">
        <h2 className="font-medium">Look up a task</h2>
        <p className="text-sm text-muted-foreground">Open one of your segmentation tasks by its service task id.</p>
        <SegmentationLookupForm action={lookUpSegmentationTaskAction} />
      </section>
    </FormPage>
  );
}
