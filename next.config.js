/** @type {import('next').NextConfig} */
const nextConfig = {
  // Packages with native code, WASM or worker files load from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "sharp", "manifold-3d", "busboy", "meshoptimizer"],
  poweredByHeader: false,
  // `npm test` type-checks once with tsc; the build need not do it again.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
