"use client";

import { DeleteTaskButton } from "@/components/tasks/delete-task-button";
import { LocalTime } from "@/components/tasks/local-time";

export interface AdminTaskView {
  id: string;
  kind: string;
  state: string;
  cost: number;
  createdAt: string;
  owner: string;
}

/** Every account's newest tasks; an admin may delete any of them (its files and share links go, its charge stays). */
export function TaskTable({ tasks }: { tasks: AdminTaskView[] }) {
  if (tasks.length === 0) return <p className="text-muted-foreground">No tasks yet.</p>;
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-sm whitespace-nowrap" data-testid="admin-tasks">
        <thead className="text-left text-muted-foreground">
          <tr>
            {["Task", "Owner", "Kind", "State", "Cost", "Created", ""].map((h, i) => (
              <th key={i} scope="col" className="pr-4 font-medium">
                {h || <span className="sr-only">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {tasks.map((t) => (
            <tr key={t.id} data-testid="admin-task" data-task={t.id} className="border-t border-border">
              <th scope="row" className="py-2 pr-4 text-left font-mono font-normal">
                {t.id}
              </th>
              <td className="py-2 pr-4">{t.owner}</td>
              <td className="py-2 pr-4">{t.kind}</td>
              <td className="py-2 pr-4">{t.state}</td>
              <td className="py-2 pr-4">{t.cost}</td>
              <td className="py-2 pr-4">
                <LocalTime iso={t.createdAt} />
              </td>
              <td className="py-2 pr-4">
                <DeleteTaskButton taskId={t.id} history="/admin" label={`Delete task ${t.id} of ${t.owner}`} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
