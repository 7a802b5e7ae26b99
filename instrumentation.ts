// Starts the embedded x3d service with the server, so queued tasks resume after a restart
// without waiting for a request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Next drops Content-Length from route-handler responses; file routes need it (lib/files/restore-content-length).
  const { restoreContentLength } = await import("./lib/files/restore-content-length");
  restoreContentLength();
  const { startServices } = await import("./lib/start-services");
  await startServices();
}
