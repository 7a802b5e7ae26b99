import { ArrowLeft } from "lucide-react";
import { Container } from "@/components/ui/container";
import type { Metadata } from "next";
import Link from "@/components/ui/link";
import { notFound } from "next/navigation";
import { CompareView } from "@/components/tasks/compare-view";
import { ComparePicker } from "@/components/tasks/compare-picker";
import { IconLink } from "@/components/tasks/icon-link";
import { KIND_LABELS } from "@/components/tasks/task-labels";
import { requireUser } from "@/app/(studio)/require-user";
import { compareTasks } from "@/lib/tasks/read/compare";
import { findUserTask, listUserTasks } from "@/lib/tasks/read/queries";
import { taskView } from "@/lib/tasks/model/task-view";

export const metadata: Metadata = { title: "Compare · x3d studio" };

const ids = (v: string | string[] | undefined): string[] => (Array.isArray(v) ? v : v ? [v] : []);

/** `?t=<a>&t=<b>`: two of the user's results compared; `?t=<a>` alone: pick the second one. */
export default async function ComparePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const [idA, idB] = ids((await searchParams).t);
  const back = (
    <p className="mb-4 text-sm text-muted-foreground">
      <Link href="/tasks" className="hover:text-foreground/85">
        ← My tasks
      </Link>
    </p>
  );

  if (idA && idB) {
    const outcome = await compareTasks(user.id, idA, idB);
    if (outcome.status === "not-found") notFound();
    if (outcome.status !== "ok") {
      return (
        <Container>
          {back}
          <h1 className="mb-6 text-2xl font-semibold tracking-tight">Compare</h1>
          <p className="text-muted-foreground">{outcome.reason}</p>
        </Container>
      );
    }
    // The viewers take the full width, as the task page's viewer does.
    return (
      <>
        <div className="flex min-h-14 items-center gap-2 border-b border-border px-3 py-2 sm:px-4">
          <IconLink href="/tasks" label="Back to my tasks" icon={<ArrowLeft />} className="-ml-2" />
          <h1 className="text-title font-semibold tracking-tight">Compare</h1>
          <p className="truncate text-caption text-muted-foreground">
            A: {KIND_LABELS[outcome.a.kind]} · B: {KIND_LABELS[outcome.b.kind]}
          </p>
        </div>
        <CompareView a={outcome.a} b={outcome.b} differing={outcome.differing} />
      </>
    );
  }

  if (idA && !(await findUserTask(user.id, idA))) notFound();
  const { tasks } = await listUserTasks(user.id, { state: "success", page: 1 });
  const choices = tasks
    .filter((task) => task.id !== idA)
    .map((task) => {
      const view = taskView(task);
      return { id: view.id, kind: view.kind, createdAt: view.createdAt, coverUrl: view.cover.url };
    });
  return (
    <Container>
      {back}
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">{idA ? "Compare with…" : "Compare two results"}</h1>
      <ComparePicker first={idA ?? null} choices={choices} />
    </Container>
  );
}
