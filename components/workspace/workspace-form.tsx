"use client";

import { createContext, use } from "react";
import type { CreateAction } from "@/components/forms/use-create-action";
import type { FormStart, MeshResultOption } from "@/lib/tasks/create/form-props";
import type { StudioTaskKind } from "@/lib/tasks/model/task-types";
import type { CostTable } from "@/lib/x3d/costs";

/**
 * What the workspace hands its form: the create action (which shows the new task), the costs,
 * the earlier results a mesh form offers, and the form's start (filled anew when a result is
 * picked). The form itself comes from the page (`<Workspace form={<ImageTaskFormInWorkspace />}>`),
 * so each workspace loads its own kind's form and not the other four.
 */
export interface WorkspaceForm {
  action: CreateAction;
  costs: CostTable;
  results: readonly MeshResultOption[];
  start: FormStart;
}

export const WorkspaceFormContext = createContext<WorkspaceForm | null>(null);

/** The workspace's form props, for a form of `kind` (its start narrowed to that kind). */
export function useWorkspaceForm<K extends StudioTaskKind>(
  kind: K,
): Omit<WorkspaceForm, "start"> & { start: Extract<FormStart, { kind: K }> } {
  const form = use(WorkspaceFormContext);
  if (!form) throw new Error("a workspace form must be inside <Workspace>");
  if (form.start.kind !== kind) throw new Error(`the ${kind} form was given a ${form.start.kind} start`);
  return form as Omit<WorkspaceForm, "start"> & { start: Extract<FormStart, { kind: K }> };
}
