import "server-only";
import { runDisplayJob } from "@/lib/display";
import type { DeriveDisplay } from "./display-copy";

/** The production deriver: lib/display in a worker thread of its own, so polls never wait on it. */
export const deriveDisplayInWorker: DeriveDisplay = (input, format, outDir) => runDisplayJob(input, format, outDir);
