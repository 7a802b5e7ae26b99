import type { StudioTaskKind } from "../model/task-types";
import { inputEntries, type InputEntry } from "../model/recorded-inputs";
import { taskFileUrl } from "../model/file-urls";

/** An input with a picture the studio keeps: an uploaded image, or an earlier result (its cover). */
const pictured = ({ role, ref }: InputEntry) => ("upload" in ref && role === "image") || "task" in ref;

/**
 * The address of the picture a task's card shows until it has a cover: its first input that
 * has one, served by /api/files/<task>/inputs/<n>. Undefined for a task made from URLs or
 * uploaded models only.
 */
export function inputPreviewUrl(id: string, kind: StudioTaskKind, inputs: Record<string, unknown>): string | undefined {
  const index = inputEntries(kind, inputs).findIndex(pictured);
  return index < 0 ? undefined : taskFileUrl({ owner: id }, `inputs/${index}`);
}
