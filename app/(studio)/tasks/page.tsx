import { Container } from "@/components/ui/container";
import type { Metadata } from "next";
import Link from "next/link";
import { HistoryFilters } from "@/components/tasks/history-filters";
import { COMPARE_FORM_ID, TaskHistory, type HistoryRow } from "@/components/tasks/task-history";
import { requireUser } from "@/lib/session";
import { listUserTasks, parseHistoryFilter, taskView, type HistoryFilter } from "@/lib/tasks/queries";

export const metadata: Metadata = { title: "My tasks · x3d studio" };

/** The address of another page of the same filtered history. */
function pageHref(filter: HistoryFilter, page: number): string {
  const params = new URLSearchParams();
  if (filter.kind) params.set("kind", filter.kind);
  if (filter.state) params.set("state", filter.state);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/tasks?${query}` : "/tasks";
}

export default async function TasksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const params = await searchParams;
  const filter = parseHistoryFilter(params);
  // Set by a delete (components/tasks/delete-task-button), on this page or the task's own.
  const deleted = params.deleted !== undefined;
  const { tasks, hasNext } = await listUserTasks(user.id, filter);
  const rows: HistoryRow[] = tasks.map((task) => {
    const view = taskView(task);
    return { id: view.id, kind: view.kind, state: view.state, live: !view.settled, createdAt: view.createdAt, coverUrl: view.cover.url };
  });
  const filtered = filter.kind !== undefined || filter.state !== undefined;

  return (
    <Container className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">My tasks</h1>
        <div className="flex flex-wrap items-end gap-4">
          {/* The rows' boxes belong to this form: ticking two and sending opens /compare?t=<a>&t=<b>. */}
          <form id={COMPARE_FORM_ID} action="/compare" method="get">
            <button type="submit" className="rounded-md border border-border px-3 py-1.5 text-sm hover:border-primary">
              Compare selected
            </button>
          </form>
          <HistoryFilters kind={filter.kind} state={filter.state} />
        </div>
      </div>
      {deleted ? (
        <p role="status" data-testid="deleted-status" className="rounded-lg border border-border p-3 text-sm text-foreground/85">
          Task deleted: its files and share link are gone. The credits it cost stay spent.
        </p>
      ) : null}
      {rows.length > 0 ? (
        <TaskHistory rows={rows} here={pageHref(filter, filter.page)} />
      ) : (
        <p className="rounded-lg border border-border p-6 text-muted-foreground" data-testid="history-empty">
          {filtered || filter.page > 1 ? (
            <>
              No tasks match.{" "}
              <Link href="/tasks" className="text-primary underline">
                Show all tasks
              </Link>
              .
            </>
          ) : (
            <>
              No tasks yet.{" "}
              <Link href="/" className="text-primary underline">
                Start something
              </Link>
              .
            </>
          )}
        </p>
      )}
      {filter.page > 1 || hasNext ? (
        <nav className="flex items-center justify-between text-sm" aria-label="Pages">
          {filter.page > 1 ? (
            <Link href={pageHref(filter, filter.page - 1)} className="text-primary" rel="prev">
              ← Previous
            </Link>
          ) : (
            <span />
          )}
          <span className="text-muted-foreground">Page {filter.page}</span>
          {hasNext ? (
            <Link href={pageHref(filter, filter.page + 1)} className="text-primary" rel="next">
              Next →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </Container>
  );
}
