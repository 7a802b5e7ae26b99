// What a test server keeps in its file store, on disk or in the S3 run's bucket, for tests that
// check that files are there or gone (a deleted task's, a refused upload's).
import { LocalStore } from "@/lib/files/store/local";
import { parseS3Url, S3Store } from "@/lib/files/store/s3";
import type { FileStore } from "@/lib/files/store/types";
import type { TestServer } from "./server";

/** The server's store, as the server itself opens it. */
function storeOf(server: Pick<TestServer, "dataDir" | "env">): FileStore {
  const s3 = server.env.X3D_STORAGE;
  return s3 ? new S3Store(parseS3Url(s3), { forcePathStyle: server.env.X3D_S3_FORCE_PATH_STYLE === "1" }) : new LocalStore(server.dataDir);
}

/** The server's local scratch folder (staged uploads, jobs): under DATA_DIR, or the system's temporary folder with S3. */
export const scratchRootOf = (server: Pick<TestServer, "dataDir" | "env">) => storeOf(server).scratchRoot();

/** The keys under `prefix` (e.g. "studio/results/<task>"), sorted. */
export async function storedKeys(server: Pick<TestServer, "dataDir" | "env">, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of storeOf(server).list(prefix)) keys.push(file.key);
  return keys.sort();
}
