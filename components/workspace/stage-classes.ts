/* The middle column's layout, shared by its stages (one task, the empty stage, compare). */

/** How tall the viewer's place is: most of a phone's screen, the whole middle column from 1024 px. */
export const STAGE_HEIGHT = "h-[60dvh] min-h-80 lg:h-full lg:min-h-0";

/**
 * The middle column's bar and body. Under 1024 px the workspace is one column and the body's
 * parts take their places in it: the viewer (its first child) under the bar, then the strip of
 * results, then what the viewer puts under itself (the print panel), then the form.
 */
export const STAGE_BAR = "order-1 flex min-h-12 flex-wrap items-center gap-x-3 gap-y-1 border-b border-border px-3 py-1.5 lg:order-none";
export const STAGE_BODY =
  "contents max-lg:[&>*]:order-4 max-lg:[&>*:first-child]:order-2 lg:relative lg:block lg:min-h-0 lg:flex-1 lg:overflow-y-auto";
