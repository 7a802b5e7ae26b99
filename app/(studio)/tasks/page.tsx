import type { Metadata } from "next";
import Link from "@/components/ui/link";
import { TaskGallery } from "@/components/tasks/task-gallery";
import { Container } from "@/components/ui/container";
import { requireUser } from "@/app/(studio)/require-user";
import { galleryCards } from "@/lib/tasks/read/gallery-cards";
import { listUserTasks, parseHistoryFilter } from "@/lib/tasks/read/queries";
import type { SearchParams } from "@/lib/tasks/create/search-params";

export const metadata: Metadata = { title: "My tasks · x3d studio" };

export default async function TasksPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const params = await searchParams;
  const filter = parseHistoryFilter(params);
  const { tasks, hasNext } = await listUserTasks(user.id, filter);
  return (
    <Container className="max-w-7xl">
      <TaskGallery
        base="/tasks"
        heading={<h1 className="text-display font-semibold tracking-tight">My tasks</h1>}
        tasks={galleryCards(tasks)}
        hasNext={hasNext}
        filter={filter}
        // Set by a delete (components/tasks/delete-task-button), on this page or the task's own.
        deleted={params.deleted !== undefined}
        emptyHint={
          <>
            Start from one of these samples, or drop your own image on{" "}
            <Link href="/" className="text-primary underline underline-offset-4">
              the home page
            </Link>
            .
          </>
        }
      />
    </Container>
  );
}
