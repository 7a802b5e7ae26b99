import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Headers for every answer (pages, routes, public files). The pages' Content-Security-Policy
 * carries a fresh nonce, so proxy.ts sets it; the routes get a fixed one here: proxy.ts must
 * not match them (it would cut upload bodies at 10 MB). When a route sets one of these headers
 * too, Next keeps the value from here.
 */
const everywhere = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  // For browsers that do not know CSP's frame-ancestors.
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
];

/** JSON routes and files: nothing in them is meant to run or to be framed (lib/http/content-security-policy.ts FILE_POLICY). */
const routePolicy = { key: "Content-Security-Policy", value: "default-src 'none'; sandbox; frame-ancestors 'none'" };

/** @type {import('next').NextConfig} */
const nextConfig = {
  // .next/standalone: a server.js with only the node_modules files the server loads, which the
  // container image runs. scripts/standalone.mjs (the last step of `npm run build`) adds what
  // Next leaves out (static assets, public/, the worker bundles, the migrations) and removes
  // what its trace takes in by mistake (data/, source folders).
  output: "standalone",
  // This checkout, whatever lockfiles lie above it: server.js lands at .next/standalone/server.js.
  outputFileTracingRoot: path.dirname(fileURLToPath(import.meta.url)),
  // Packages with native code, WASM or worker files load from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "sharp", "manifold-3d", "busboy", "meshoptimizer"],
  poweredByHeader: false,
  // `npm test` type-checks once with tsc; the build need not do it again.
  typescript: { ignoreBuildErrors: true },
  async headers() {
    return [
      { source: "/:path*", headers: everywhere },
      // Auth.js's own pages (its error page, say) are HTML with inline styles: left to its defaults.
      { source: "/api/:path((?!auth/).*)", headers: [routePolicy] },
      { source: "/open-api/:path*", headers: [routePolicy] },
      // A share link's token is its only key: pages and files under it send no Referer. Later
      // entries win over earlier ones for the same header.
      { source: "/share/:path*", headers: [{ key: "Referrer-Policy", value: "no-referrer" }] },
      { source: "/api/share/:path*", headers: [{ key: "Referrer-Policy", value: "no-referrer" }] },
    ];
  },
};

export default nextConfig;
