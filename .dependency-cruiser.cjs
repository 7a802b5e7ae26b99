/**
 * The import rules of docs/architecture.md, kept by dependency-cruiser (`npm run lint:deps`, a step
 * of `npm test`). Paths are relative to the repository root. test/dependency-rules.test.ts plants
 * one break of each rule in a scratch tree and checks that exactly that rule reports it.
 *
 * Test code (test/, e2e/, *.test.ts, *.spec.ts, *.test-helpers.ts and the test runners'
 * configuration) may reach anything, but nothing else may import it; the layer rules below are
 * about production code only.
 */

/** Test code: the paths of the test suites, helpers beside the code, the runners' configuration. */
const TEST_CODE = [
  "^test/",
  "^e2e/",
  "\\.(test|spec|test-helpers)\\.[cm]?[jt]sx?$",
  "^(playwright|vitest|vitest\\.mutation)\\.config\\.ts$",
  "^stryker\\.config\\.mjs$",
];

/** The repository's own code (packages and Node's modules are not ruled here). */
const OWN_CODE = "^(app|components|lib|scripts|test|e2e)/|^[^/]+\\.[cm]?[jt]sx?$";

/**
 * Modules both faces share: the database and its schema, the environment, file helpers, the
 * embedded service's generated client pair, HTTP headers and process-wide helpers. They import
 * only each other.
 */
const SHARED_LEAVES = [
  "^lib/files/",
  "^lib/db/",
  "^lib/http/",
  "^lib/metrics/",
  "^lib/(env|embedded-credentials|global-singleton|ttl-cache|thread-priority|shutdown|roles|collect-garbage|content-types|log)\\.ts$",
];

/** Where the embedded service may be imported from: itself, its routes and the composition root that boots it. */
const ENGINE_IMPORTERS = ["^lib/engine/", "^app/open-api/", "^lib/start-services\\.ts$", "^instrumentation\\.ts$"];

/** lib/tasks by stage, each importing only the stages before it. */
const TASK_STAGES = ["model", "read", "lifecycle", "create"];

const stageRules = TASK_STAGES.slice(0, -1).map((stage, i) => ({
  name: `tasks-stage-${stage}`,
  comment: `lib/tasks imports point one way (${TASK_STAGES.join(" <- ")}): ${stage}/ imports none of ${TASK_STAGES.slice(i + 1).join(", ")}`,
  severity: "error",
  from: { path: `^lib/tasks/${stage}/`, pathNot: TEST_CODE },
  to: { path: `^lib/tasks/(${TASK_STAGES.slice(i + 1).join("|")})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import loop anywhere in the repository (type imports included).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      comment: "Every import names a file or an installed package.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: "not-to-test",
      comment: "Nothing but test code imports test code.",
      severity: "error",
      from: { pathNot: TEST_CODE },
      to: { path: TEST_CODE },
    },
    {
      name: "not-to-dev-dependency",
      comment: "Production code imports no development-only package.",
      severity: "error",
      from: { path: "^(app|components|lib)/|^(proxy|instrumentation)\\.ts$", pathNot: TEST_CODE },
      to: { dependencyTypes: ["npm-dev"], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "engine-imports-only-contract-and-leaves",
      comment: "lib/engine imports only lib/engine, lib/x3d and the shared leaves: never studio code.",
      severity: "error",
      from: { path: "^lib/engine/", pathNot: TEST_CODE },
      to: { path: OWN_CODE, pathNot: ["^lib/engine/", "^lib/x3d/", ...SHARED_LEAVES] },
    },
    {
      name: "open-api-routes-import-only-engine",
      comment: "The service's routes (app/open-api) import only lib/engine, lib/x3d and the shared leaves.",
      severity: "error",
      from: { path: "^app/open-api/", pathNot: TEST_CODE },
      to: { path: OWN_CODE, pathNot: ["^lib/engine/", "^lib/x3d/", ...SHARED_LEAVES] },
    },
    {
      name: "engine-imported-only-by-its-routes-and-boot",
      comment: "Only lib/engine, app/open-api, lib/start-services.ts and instrumentation.ts (and test code) import lib/engine.",
      severity: "error",
      from: { pathNot: [...ENGINE_IMPORTERS, ...TEST_CODE] },
      to: { path: "^lib/engine/" },
    },
    {
      name: "leaves-import-only-leaves",
      comment: "The shared leaves import only shared leaves.",
      severity: "error",
      from: { path: SHARED_LEAVES, pathNot: TEST_CODE },
      to: { path: OWN_CODE, pathNot: SHARED_LEAVES },
    },
    {
      name: "contract-imports-only-itself",
      comment:
        "lib/x3d imports only lib/x3d (lib/x3d/service.ts, the studio's client, also reads lib/env.ts and lib/embedded-credentials.ts).",
      severity: "error",
      from: { path: "^lib/x3d/", pathNot: [...TEST_CODE, "^lib/x3d/service\\.ts$"] },
      to: { path: OWN_CODE, pathNot: "^lib/x3d/" },
    },
    {
      name: "contract-client-reads-only-env",
      comment: "lib/x3d/service.ts imports only lib/x3d, lib/env.ts and lib/embedded-credentials.ts.",
      severity: "error",
      from: { path: "^lib/x3d/service\\.ts$" },
      to: { path: OWN_CODE, pathNot: ["^lib/x3d/", "^lib/env\\.ts$", "^lib/embedded-credentials\\.ts$"] },
    },
    {
      name: "components-not-to-engine-db-app",
      comment: "components/ import neither lib/engine nor lib/db nor app/.",
      severity: "error",
      from: { path: "^components/", pathNot: TEST_CODE },
      to: { path: ["^lib/engine/", "^lib/db/", "^app/"] },
    },
    {
      name: "lib-not-to-components-app",
      comment: "lib/ imports neither components/ nor app/.",
      severity: "error",
      from: { path: "^lib/", pathNot: TEST_CODE },
      to: { path: ["^components/", "^app/"] },
    },
    {
      name: "accounts-one-way-in",
      comment:
        "Outside lib/, lib/accounts is imported only through lib/accounts/index.ts (instrumentation.ts also boots lib/accounts/stamp-client-address.ts).",
      severity: "error",
      from: { pathNot: ["^lib/", "^instrumentation\\.ts$", ...TEST_CODE] },
      to: { path: "^lib/accounts/", pathNot: "^lib/accounts/index\\.ts$" },
    },
    {
      name: "accounts-boot-only-stamp",
      comment: "instrumentation.ts imports lib/accounts only for its client-address stamp (Auth.js must not load at boot).",
      severity: "error",
      from: { path: "^instrumentation\\.ts$" },
      to: { path: "^lib/accounts/", pathNot: "^lib/accounts/stamp-client-address\\.ts$" },
    },
    {
      name: "lib-not-to-accounts-index",
      comment:
        "lib/ outside lib/accounts imports neither lib/accounts/index.ts nor lib/accounts/authjs.ts (next-auth loads only inside Next.js).",
      severity: "error",
      from: { path: "^lib/", pathNot: ["^lib/accounts/", ...TEST_CODE] },
      to: { path: "^lib/accounts/(index|authjs)\\.ts$" },
    },
    {
      name: "credits-imports-only-leaves",
      comment: "lib/credits imports only lib/credits and the shared leaves: lib/tasks asks it to charge, never the other way.",
      severity: "error",
      from: { path: "^lib/credits/", pathNot: TEST_CODE },
      to: { path: OWN_CODE, pathNot: ["^lib/credits/", ...SHARED_LEAVES] },
    },
    {
      name: "tasks-in-a-stage",
      comment: `Every module of lib/tasks lives in a stage folder (${TASK_STAGES.join(", ")}).`,
      severity: "error",
      from: { path: `^lib/tasks/(?!(${TASK_STAGES.join("|")})/)` },
      to: {},
    },
    ...stageRules,
  ],
  options: {
    doNotFollow: { path: ["node_modules"] },
    exclude: {
      path: ["^\\.next/", "^\\.build/", "^node_modules/", "^data/", "^public/", "^reports/", "^test-results/", "^\\.stryker-tmp/"],
    },
    // Type imports count: a loop through types is a loop a reader walks too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
