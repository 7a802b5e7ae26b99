import type { StudioTaskKind, TaskState } from "../model/task-types";

/** What the gallery shows: its filters and its page, as in its address (`?kind=&state=&page=`). */
export interface GalleryQuery {
  kind?: StudioTaskKind | undefined;
  state?: TaskState | undefined;
  page?: number | undefined;
}

/** The address of the gallery at `base` ("/" or "/tasks") with these filters and page; page 1 and no filter give the bare path. */
export function galleryHref(base: string, { kind, state, page = 1 }: GalleryQuery): string {
  const params = new URLSearchParams();
  if (kind) params.set("kind", kind);
  if (state) params.set("state", state);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}
