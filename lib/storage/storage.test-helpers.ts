// Where the studio's stored files lie on disk when the file store is the folder (the default):
// for tests that look at or plant files directly.
import path from "node:path";
import { serverEnv } from "@/lib/env";

export const studioDir = () => path.join(serverEnv().DATA_DIR, "studio");
export const storedPath = (relative: string) => path.join(studioDir(), ...relative.split("/"));
