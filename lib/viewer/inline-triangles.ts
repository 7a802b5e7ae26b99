/**
 * Models below this many triangles are flattened and analysed on the page: a worker's start
 * costs more. A module of its own so the viewer, which flattens every model, does not take the
 * print analysis's code in with the number.
 */
export const INLINE_TRIANGLES = 5_000;
