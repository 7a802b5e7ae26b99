import type { Metadata } from "next";
import { FormPage } from "@/components/forms/form-page";
import { SplitTaskForm } from "@/components/forms/split-task-form";
import { requireUser } from "@/lib/session";
import { initialSplitOptions } from "@/lib/tasks/create-form-initial";
import { prefillFor } from "@/lib/tasks/create-prefill";
import { costTable } from "@/lib/tasks/create-task";
import { meshResults } from "@/lib/tasks/inputs";
import { prefillParams, type SearchParams } from "@/lib/tasks/search-params";
import { MESH_TYPES } from "@/lib/x3d/options";
import { createSplitTaskAction } from "./actions";

export const metadata: Metadata = { title: "Split for printing · x3d studio" };

export default async function NewSplitTaskPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const params = await prefillParams(searchParams);
  const [prefill, results] = await Promise.all([
    prefillFor(user.id, { kind: "split", ...params, meshTypes: MESH_TYPES }),
    meshResults(user.id, MESH_TYPES),
  ]);
  return (
    <FormPage title="Split for printing" intro="Cut a character or an object into printable parts, with joints." notice={prefill.notice}>
      <SplitTaskForm
        action={createSplitTaskAction}
        costs={costTable()}
        results={results}
        initial={{ options: initialSplitOptions(prefill.options), mesh: prefill.mesh }}
      />
    </FormPage>
  );
}
