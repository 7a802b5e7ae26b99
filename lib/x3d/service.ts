import "server-only";
import { embeddedCredentials } from "@/lib/embedded-credentials";
import { serverEnv, webUrl } from "@/lib/env";
import { createX3dClient, type X3dClient } from "./client";

let client: X3dClient | undefined;

/**
 * The one service client of the studio: the live service when X3D_BASE_URL is set (with
 * X3D_CLIENT_ID/SECRET), else the embedded service of this very app, over loopback (from a
 * worker, X3D_ROLE=worker: the web servers' at X3D_WEB_URL, else APP_URL).
 */
export function x3d(): X3dClient {
  if (client) return client;
  const env = serverEnv();
  if (env.X3D_BASE_URL) {
    if (!env.X3D_CLIENT_ID || !env.X3D_CLIENT_SECRET) throw new Error("X3D_BASE_URL needs X3D_CLIENT_ID and X3D_CLIENT_SECRET");
    client = createX3dClient({ baseUrl: env.X3D_BASE_URL, clientId: env.X3D_CLIENT_ID, clientSecret: env.X3D_CLIENT_SECRET });
  } else {
    const { clientId, clientSecret } = embeddedCredentials();
    // A worker serves no API: it reaches the embedded service on the web servers.
    const baseUrl = env.X3D_ROLE === "worker" ? webUrl() : `http://127.0.0.1:${env.PORT}`;
    client = createX3dClient({ baseUrl, clientId, clientSecret });
  }
  return client;
}

/** True when the studio talks to the live service. */
export const usingLiveService = () => !!serverEnv().X3D_BASE_URL;
