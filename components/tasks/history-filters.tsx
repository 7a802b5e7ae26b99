"use client";

import Form from "next/form";
import type { StudioTaskKind, TaskState } from "@/lib/tasks/task-types";
import { KIND_LABELS, STATE_LABELS } from "./task-labels";

interface Props {
  kind?: StudioTaskKind;
  state?: TaskState;
}

/** Kind and state filters as a GET form (works without JavaScript; submits on change with it). */
export function HistoryFilters({ kind, state }: Props) {
  const submit = (e: React.ChangeEvent<HTMLSelectElement>) => e.currentTarget.form?.requestSubmit();
  const select = "rounded-md border border-border bg-card px-2 py-1.5 text-sm";
  return (
    <Form action="/tasks" className="flex flex-wrap items-end gap-3">
      <label className="grid gap-1 text-xs text-muted-foreground">
        Kind
        <select name="kind" defaultValue={kind ?? ""} onChange={submit} className={select}>
          <option value="">All kinds</option>
          {Object.entries(KIND_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="grid gap-1 text-xs text-muted-foreground">
        State
        <select name="state" defaultValue={state ?? ""} onChange={submit} className={select}>
          <option value="">All states</option>
          {Object.entries(STATE_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <noscript>
        <button className="rounded-md border border-border px-3 py-1.5 text-sm">Filter</button>
      </noscript>
    </Form>
  );
}
