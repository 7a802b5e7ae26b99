import type { Metadata } from "next";
import { DepthTaskForm } from "@/components/forms/depth-task-form";
import { FormPage } from "@/components/forms/form-page";
import { requireUser } from "@/lib/session";
import { initialDepthOptions } from "@/lib/tasks/create-form-initial";
import { prefillFor } from "@/lib/tasks/create-prefill";
import { costTable } from "@/lib/tasks/create-task";
import { prefillParams, type SearchParams } from "@/lib/tasks/search-params";
import { createDepthTaskAction } from "./actions";

export const metadata: Metadata = { title: "Depth & relief · x3d studio" };

export default async function NewDepthTaskPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  // A depth task takes an image: `?from=` gives the earlier result's cover.
  const prefill = await prefillFor(user.id, { kind: "depth", ...(await prefillParams(searchParams)) });
  return (
    <FormPage title="Depth & relief" intro="A depth map, or a printable relief, from an image." notice={prefill.notice}>
      <DepthTaskForm
        action={createDepthTaskAction}
        costs={costTable()}
        initial={{ options: initialDepthOptions(prefill.options), image: prefill.image }}
      />
    </FormPage>
  );
}
