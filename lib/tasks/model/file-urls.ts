/**
 * The one place a task's file addresses are built, for either audience. Safe for client
 * components (no imports), which link an earlier result's cover.
 */

/** Who the links are for: the task's owner (by task id) or whoever holds a share link (by token). */
export type Audience = { owner: string } | { share: string };

/** Whether the links are for a share page, which shows nothing about the owner. */
export const isShared = (audience: Audience): audience is { share: string } => "share" in audience;

/**
 * The address of one of a task's files (`result`, `cover`, `display`, `preview`, `inputs/<n>`):
 * /api/files/<task>/… for the owner, /api/share/<token>/files/… for a share link.
 */
export function taskFileUrl(audience: Audience, file: string): string {
  const base = isShared(audience)
    ? `/api/share/${encodeURIComponent(audience.share)}/files`
    : `/api/files/${encodeURIComponent(audience.owner)}`;
  return `${base}/${file}`;
}
