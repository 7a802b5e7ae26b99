import { HomeDropZone } from "@/components/start/home-drop-zone";
import { StartLinks } from "@/components/start/start-links";
import { TaskGallery } from "@/components/tasks/task-gallery";
import { Container } from "@/components/ui/container";
import { requireUser } from "@/app/(studio)/require-user";
import { galleryCards } from "@/lib/tasks/read/gallery-cards";
import { listUserTasks, parseHistoryFilter } from "@/lib/tasks/read/queries";
import type { SearchParams } from "@/lib/tasks/create/search-params";

/** The artist's gallery: a drop zone and the ways to start at the top, their results below. */
export default async function Home({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const params = await searchParams;
  const filter = parseHistoryFilter(params);
  const { tasks, hasNext } = await listUserTasks(user.id, filter);
  return (
    <Container className="max-w-7xl space-y-10">
      <section aria-labelledby="start-heading" className="space-y-4">
        <div>
          <h1 id="start-heading" className="text-display font-semibold tracking-tight">
            Start something
          </h1>
          <p className="mt-1 text-body text-muted-foreground">Drop an image to turn it into a 3D model, or pick a tool.</p>
        </div>
        <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_var(--spacing-panel)]">
          <HomeDropZone />
          <StartLinks />
        </div>
      </section>
      <section aria-labelledby="results-heading">
        <TaskGallery
          base="/"
          heading={
            <h2 id="results-heading" className="text-title font-semibold tracking-tight">
              Your results
            </h2>
          }
          tasks={galleryCards(tasks)}
          hasNext={hasNext}
          filter={filter}
          deleted={params.deleted !== undefined}
          emptyHint="Drop an image above, or start from one of these samples."
          filtersOnlyWithTasks
        />
      </section>
    </Container>
  );
}
