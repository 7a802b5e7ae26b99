import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentAdmin } from "@/lib/accounts";
import { recentTasks } from "@/lib/admin/tasks";
import { adminUserRows } from "@/lib/admin/users";
import { serviceBalance } from "@/lib/admin/service-balance";
import { recentServiceErrors } from "@/lib/tasks/lifecycle/service-errors";
import { setAllowanceAction, setDisabledAction } from "./actions";
import { UserTable } from "@/components/admin/user-table";
import { ServiceErrorList } from "@/components/admin/service-errors";
import { TaskTable } from "@/components/admin/task-table";

export const metadata: Metadata = { title: "Admin · x3d studio" };

/** Users with their credits and activity, every account's recent tasks, the service account's balance and the service's recent errors. */
export default async function AdminPage() {
  // The layout refuses too, but Next renders a page beside its layout, not after it: without this
  // the queries and the service's balance below ran for every request, signed out included.
  if (!(await currentAdmin())) notFound();
  const [rows, balance, errors, tasks] = await Promise.all([adminUserRows(), serviceBalance(), recentServiceErrors(20), recentTasks(50)]);
  return (
    <div className="space-y-10">
      <h1 className="text-xl font-semibold">Admin</h1>
      <section aria-labelledby="service-heading" className="space-y-2">
        <h2 id="service-heading" className="text-lg font-medium">
          Service account
        </h2>
        {"balance" in balance ? (
          <p>
            Balance: <span data-testid="service-balance">{balance.balance} credits</span>. Every task is paid from it; the allowances below
            share it out.
          </p>
        ) : (
          <p role="alert" className="text-warning">
            Balance unavailable: {balance.error}
          </p>
        )}
      </section>
      <section aria-labelledby="users-heading" className="space-y-3">
        <h2 id="users-heading" className="text-lg font-medium">
          Users
        </h2>
        <UserTable
          actions={{ setAllowance: setAllowanceAction, setDisabled: setDisabledAction }}
          rows={rows.map((r) => ({
            ...r,
            lastActive: r.lastActive?.toISOString() ?? null,
            createdAt: r.createdAt.toISOString(),
          }))}
        />
      </section>
      <section aria-labelledby="tasks-heading" className="space-y-3">
        <h2 id="tasks-heading" className="text-lg font-medium">
          Recent tasks
        </h2>
        <TaskTable tasks={tasks.map((t) => ({ ...t, createdAt: t.createdAt.toISOString() }))} />
      </section>
      <section aria-labelledby="errors-heading" className="space-y-3">
        <h2 id="errors-heading" className="text-lg font-medium">
          Recent service errors
        </h2>
        <ServiceErrorList
          errors={errors.map((e) => ({
            id: e.id,
            at: e.at.toISOString(),
            operation: e.operation,
            code: e.code,
            message: e.message,
            taskId: e.taskId,
          }))}
        />
      </section>
    </div>
  );
}
