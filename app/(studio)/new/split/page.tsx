import type { Metadata } from "next";
import { SplitTaskFormInWorkspace } from "@/components/forms/split-task-form";
import { Workspace } from "@/components/workspace/workspace";
import { requireUser } from "@/app/(studio)/require-user";
import { costTable } from "@/lib/tasks/create/create-task";
import { meshResults } from "@/lib/tasks/create/resolve-inputs";
import { prefillParams, type SearchParams } from "@/lib/tasks/create/search-params";
import { FORM_MESH_TYPES, workspaceStart } from "@/lib/tasks/create/workspace";
import { createSplitTaskAction } from "./actions";

export const metadata: Metadata = { title: "Split for printing · x3d studio" };

export default async function NewSplitTaskPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const [start, results] = await Promise.all([
    workspaceStart(user.id, "split", await prefillParams(searchParams)),
    meshResults(user.id, FORM_MESH_TYPES.split),
  ]);
  return (
    <Workspace
      kind="split"
      title="Split for printing"
      intro="Cut a character or an object into printable parts, with joints."
      start={start}
      form={<SplitTaskFormInWorkspace />}
      action={createSplitTaskAction}
      costs={costTable()}
      results={results}
    />
  );
}
