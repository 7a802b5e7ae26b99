/**
 * A studio task's kind and state as components name them. Types only, safe for client
 * components, which do not import lib/db.
 */
export type { StudioTaskKind, TaskState } from "@/lib/db/schema";
