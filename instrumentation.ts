// Starts the embedded x3d service with the server, so queued tasks resume after a restart
// without waiting for a request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Next drops Content-Length from route-handler responses; file routes need it (lib/files/restore-content-length).
  const { restoreContentLength } = await import("./lib/files/restore-content-length");
  restoreContentLength();
  // Sign-in and sign-up throttling count per client address, stamped from the socket as each
  // request arrives (Next's own x-forwarded-for is whatever the client sent, when it sent one).
  const { stampClientAddress } = await import("./lib/auth/stamp-client-address");
  const { serverEnv } = await import("./lib/env");
  stampClientAddress(serverEnv().TRUST_PROXY);
  const { startServices } = await import("./lib/start-services");
  await startServices();
}
