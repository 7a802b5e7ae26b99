import "server-only";
import type { StudioTask } from "@/lib/db/schema";
import { inputPreviewUrl } from "./input-preview";
import { taskView } from "../model/task-view";
import type { StudioTaskKind, TaskState } from "../model/task-types";

/** One task as its gallery card shows it. */
export interface GalleryCard {
  id: string;
  kind: StudioTaskKind;
  state: TaskState;
  /** Not settled yet (unfinished, or done with the result not stored): its state is kept current. */
  live: boolean;
  createdAt: string;
  coverUrl: string | null;
  /** Until there is a cover: the picture the task was made from (lib/tasks/read/input-preview.ts). */
  previewUrl: string | null;
}

/** The owner's tasks as the gallery's cards; files are linked through /api/files. */
export function galleryCards(tasks: StudioTask[]): GalleryCard[] {
  return tasks.map((task) => {
    const view = taskView(task);
    return {
      id: view.id,
      kind: view.kind,
      state: view.state,
      live: !view.settled,
      createdAt: view.createdAt,
      coverUrl: view.cover.url,
      previewUrl: view.cover.url ? null : (inputPreviewUrl(task.id, task.kind, task.inputs) ?? null),
    };
  });
}
