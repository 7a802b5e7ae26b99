// An S3-compatible server for tests (s3rver, in this process) with one bucket, and the
// environment that points the AWS SDK at it.
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";

interface S3rverInstance {
  run(): Promise<{ port: number } & AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export const S3_BUCKET = "x3d-test";

export interface TestS3 {
  endpoint: string;
  /** AWS_* for the SDK's standard environment and X3D_S3_FORCE_PATH_STYLE. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts s3rver on a free port keeping its files in `directory` (a tempDir made at the top of the file); call in beforeAll, close in afterAll. */
export async function startS3(directory: string): Promise<TestS3> {
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: S3_BUCKET }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: {
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
      AWS_REGION: "us-east-1",
      AWS_ENDPOINT_URL_S3: endpoint,
      X3D_S3_FORCE_PATH_STYLE: "1",
    },
    close: () => server.close(),
  };
}
