/** The viewer's display copies of stored results (see derive.ts) and their worker-thread runner. */
export { deriveDisplayCopies, PREVIEW_TRIANGLES, type DisplayCopies, type DisplayCopy, type SourceFormat } from "./derive";
export { DISPLAY_WORKER_SCRIPT, runDisplayJob, type RunDisplayOptions } from "./run";
