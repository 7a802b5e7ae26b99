import "server-only";
import { embeddedCredentials } from "@/lib/embedded-credentials";
import { serverEnv } from "@/lib/env";
import { createX3dClient, type X3dClient } from "./client";

let client: X3dClient | undefined;

/**
 * The one service client of the studio: the live service when X3D_BASE_URL is set (with
 * X3D_CLIENT_ID/SECRET), else the embedded service of this very app, over loopback.
 */
export function x3d(): X3dClient {
  if (client) return client;
  const env = serverEnv();
  if (env.X3D_BASE_URL) {
    if (!env.X3D_CLIENT_ID || !env.X3D_CLIENT_SECRET) throw new Error("X3D_BASE_URL needs X3D_CLIENT_ID and X3D_CLIENT_SECRET");
    client = createX3dClient({ baseUrl: env.X3D_BASE_URL, clientId: env.X3D_CLIENT_ID, clientSecret: env.X3D_CLIENT_SECRET });
  } else {
    const { clientId, clientSecret } = embeddedCredentials();
    client = createX3dClient({ baseUrl: `http://127.0.0.1:${env.PORT}`, clientId, clientSecret });
  }
  return client;
}

/** True when the studio talks to the live service. */
export const usingLiveService = () => !!serverEnv().X3D_BASE_URL;
