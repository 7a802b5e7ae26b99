/**
 * The layers point one way: app → components → lib/{tasks,accounts,...} → lib/x3d, and the
 * embedded service (lib/engine) depends only on lib/x3d and the shared leaf modules, never on
 * the studio; the studio reaches the service only through the Open API client (lib/x3d).
 *
 * Every import specifier of the sources (static imports, `export ... from`, dynamic `import()`
 * and `import("...")` types) is read with the TypeScript parser, resolved (`@/` and relative
 * paths; packages are not looked at) and checked against the rules below. Test code (test/,
 * e2e/, *.test.ts, *.spec.ts and the files TEST_HELPERS names) may reach anything, but nothing
 * else may import it.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SKIPPED_DIRS = new Set(["node_modules", "data", "public", "docs", "test-results", "playwright-report"]);
const SOURCE = /\.(ts|tsx|mts|js|mjs|cjs)$/;
const EXTENSIONS = [".ts", ".tsx", ".mts", ".js", ".mjs", ".cjs", ".json"];

/** The test runners' configuration: test code (helpers beside the code are `*.test-helpers.ts`). */
const TEST_HELPERS = new Set(["playwright.config.ts", "vitest.config.ts", "vitest.mutation.config.ts", "stryker.config.mjs"]);

/**
 * Modules both faces share: the database and its schema, the environment, file helpers
 * (sniffing, multipart bodies, serving and naming files, byte formatting), the embedded
 * service's generated client pair, HTTP headers and process-wide helpers. They import only
 * each other.
 */
const SHARED_LEAVES = [
  "lib/files/",
  "lib/db/",
  "lib/http/",
  "lib/env.ts",
  "lib/embedded-credentials.ts",
  "lib/global-singleton.ts",
  "lib/ttl-cache.ts",
  "lib/thread-priority.ts",
  "lib/shutdown.ts",
  "lib/collect-garbage.ts",
  "lib/content-types.ts",
  "lib/log.ts",
  "lib/metrics/",
];

/** Where the embedded service may be imported from: itself, its routes and the composition root that boots it. */
const ENGINE_IMPORTERS = ["lib/engine/", "app/open-api/", "lib/start-services.ts", "instrumentation.ts"];

/** What lib/x3d/service.ts (the studio's one service client) may read besides lib/x3d. */
const X3D_SERVICE_READS = ["lib/env.ts", "lib/embedded-credentials.ts"];

const ENGINE_RULE = `only ${ENGINE_IMPORTERS.join(", ")} (and test code) import lib/engine`;

/**
 * Accounts have one way in for app/, components/ and the root files: lib/accounts/index.ts. The
 * server's boot installs the client-address stamp before any request, without loading Auth.js.
 * lib/ modules outside the folder import the module they need, never the index or the Auth.js
 * setup (next-auth loads only inside Next.js, and lib's tests load those modules).
 */
const ACCOUNTS = "lib/accounts/";
const ACCOUNTS_INDEX = "lib/accounts/index.ts";
const ACCOUNTS_AUTHJS = "lib/accounts/authjs.ts";
const ACCOUNTS_BOOT = { from: "instrumentation.ts", to: "lib/accounts/stamp-client-address.ts" };
const ACCOUNTS_RULE = `outside lib/, lib/accounts is imported only through ${ACCOUNTS_INDEX} (${ACCOUNTS_BOOT.from} also boots ${ACCOUNTS_BOOT.to})`;

/**
 * lib/tasks by stage, each importing only the stages before it: the task model, reading,
 * the running lifecycle, creating (which starts a task's lifecycle: caches and announces it).
 */
const TASK_STAGES = ["model", "read", "lifecycle", "create"] as const;
const taskStage = (file: string) => TASK_STAGES.findIndex((s) => file.startsWith(`lib/tasks/${s}/`));
const TASK_STAGE_RULE = `lib/tasks imports point one way: ${TASK_STAGES.join(" <- ")}`;

const under = (file: string, places: readonly string[]) => places.some((p) => (p.endsWith("/") ? file.startsWith(p) : file === p));
const isTestCode = (file: string) =>
  file.startsWith("test/") || file.startsWith("e2e/") || /\.(test|spec|test-helpers)\.[cm]?[jt]sx?$/.test(file) || TEST_HELPERS.has(file);

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || SKIPPED_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) yield full;
  }
}

/** The module specifiers `text` imports or re-exports, with their line numbers. */
function importSpecifiers(file: string, text: string): { specifier: string; line: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : undefined);
  const found: { specifier: string; line: number }[] = [];
  const add = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node))
      found.push({ specifier: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The repository-relative file `specifier` names from `file`; null for packages; "unresolved" when no file matches. */
function resolve(file: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(ROOT, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(path.join(ROOT, file)), specifier);
  else return null;
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  // "./x.js" written for a TypeScript file x.ts
  if (/\.[cm]?js$/.test(base)) candidates.push(base.replace(/\.([cm]?)js$/, ".$1ts"), base.replace(/\.js$/, ".tsx"));
  const hit = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
  return hit ? path.relative(ROOT, hit).split(path.sep).join("/") : "unresolved";
}

interface Edge {
  from: string;
  line: number;
  specifier: string;
  to: string;
}

/** Every import between two files of the repository. */
function importEdges(): { edges: Edge[]; unresolved: Edge[] } {
  const edges: Edge[] = [];
  const unresolved: Edge[] = [];
  for (const full of sourceFiles(ROOT)) {
    const from = path.relative(ROOT, full).split(path.sep).join("/");
    for (const { specifier, line } of importSpecifiers(from, fs.readFileSync(full, "utf8"))) {
      const to = resolve(from, specifier);
      if (to === null) continue;
      (to === "unresolved" ? unresolved : edges).push({ from, line, specifier, to });
    }
  }
  return { edges, unresolved };
}

interface Rule {
  name: string;
  /** True when the edge breaks the rule. */
  breaks: (e: Edge) => boolean;
}

const RULES: Rule[] = [
  {
    name: "nothing but test code imports test code",
    breaks: (e) => !isTestCode(e.from) && isTestCode(e.to),
  },
  {
    name: "lib/engine imports only lib/engine, lib/x3d and the shared leaves",
    breaks: (e) => e.from.startsWith("lib/engine/") && !isTestCode(e.from) && !under(e.to, ["lib/engine/", "lib/x3d/", ...SHARED_LEAVES]),
  },
  {
    name: "the service's routes (app/open-api) import only lib/engine, lib/x3d and the shared leaves",
    breaks: (e) => e.from.startsWith("app/open-api/") && !under(e.to, ["lib/engine/", "lib/x3d/", ...SHARED_LEAVES]),
  },
  {
    name: ENGINE_RULE,
    breaks: (e) => e.to.startsWith("lib/engine/") && !under(e.from, ENGINE_IMPORTERS) && !isTestCode(e.from),
  },
  {
    name: "the shared leaves import only shared leaves",
    breaks: (e) => under(e.from, SHARED_LEAVES) && !isTestCode(e.from) && !under(e.to, SHARED_LEAVES),
  },
  {
    name: `lib/x3d imports only lib/x3d (lib/x3d/service.ts also ${X3D_SERVICE_READS.join(", ")})`,
    breaks: (e) =>
      e.from.startsWith("lib/x3d/") &&
      !isTestCode(e.from) &&
      !e.to.startsWith("lib/x3d/") &&
      !(e.from === "lib/x3d/service.ts" && X3D_SERVICE_READS.includes(e.to)),
  },
  {
    name: "components import neither lib/engine nor lib/db nor app",
    breaks: (e) => e.from.startsWith("components/") && under(e.to, ["lib/engine/", "lib/db/", "app/"]),
  },
  {
    name: ACCOUNTS_RULE,
    breaks: (e) =>
      e.to.startsWith(ACCOUNTS) &&
      !e.from.startsWith("lib/") &&
      !isTestCode(e.from) &&
      e.to !== ACCOUNTS_INDEX &&
      !(e.from === ACCOUNTS_BOOT.from && e.to === ACCOUNTS_BOOT.to),
  },
  {
    name: `lib/ outside lib/accounts imports neither ${ACCOUNTS_INDEX} nor ${ACCOUNTS_AUTHJS}`,
    breaks: (e) =>
      e.from.startsWith("lib/") && !e.from.startsWith(ACCOUNTS) && !isTestCode(e.from) && [ACCOUNTS_INDEX, ACCOUNTS_AUTHJS].includes(e.to),
  },
  {
    name: "lib/credits imports only lib/credits and the shared leaves",
    breaks: (e) => e.from.startsWith("lib/credits/") && !isTestCode(e.from) && !under(e.to, ["lib/credits/", ...SHARED_LEAVES]),
  },
  {
    name: TASK_STAGE_RULE,
    breaks: (e) =>
      e.from.startsWith("lib/tasks/") && !isTestCode(e.from) && e.to.startsWith("lib/tasks/") && taskStage(e.to) > taskStage(e.from),
  },
  {
    name: "lib imports neither components nor app",
    breaks: (e) => e.from.startsWith("lib/") && !isTestCode(e.from) && under(e.to, ["components/", "app/"]),
  },
];

/** The edges that break a rule, one line each: `file:line imports "specifier" (resolved): rule`. */
function brokenRules(edges: readonly Edge[], rules: readonly Rule[] = RULES): string[] {
  return edges.flatMap((e) =>
    rules.filter((r) => r.breaks(e)).map((r) => `${e.from}:${e.line} imports "${e.specifier}" (${e.to}): ${r.name}`),
  );
}

/** The import loops among the production files under `folder`, each as the files around it, first file repeated at the end. */
function importLoops(edges: readonly Edge[], folder: string): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (!e.from.startsWith(folder) || !e.to.startsWith(folder) || isTestCode(e.from) || isTestCode(e.to)) continue;
    next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  }
  const loops: string[][] = [];
  const done = new Set<string>();
  const visit = (file: string, path: string[]) => {
    const at = path.indexOf(file);
    if (at >= 0) return void loops.push([...path.slice(at), file]);
    if (done.has(file)) return;
    for (const to of next.get(file) ?? []) visit(to, [...path, file]);
    done.add(file);
  };
  for (const file of [...next.keys()].sort()) visit(file, []);
  return loops;
}

describe("layers", () => {
  const { edges, unresolved } = importEdges();

  it("reads the imports of the whole tree", () => {
    // A guard against a scan that silently finds nothing (a moved root, a broken parser).
    expect(edges.length).toBeGreaterThan(1000);
    expect(edges.some((e) => e.from === "lib/engine/handlers/create.ts" && e.to === "lib/engine/config.ts")).toBe(true);
    expect(edges.some((e) => e.from === "instrumentation.ts" && e.to === "lib/start-services.ts")).toBe(true);
  });

  it("resolves every import of a file of the repository", () => {
    expect(unresolved.map((e) => `${e.from}:${e.line} imports "${e.specifier}", which names no file`)).toEqual([]);
  });

  it("has no import against the layers", () => {
    expect(brokenRules(edges)).toEqual([]);
  });

  it("finds a forbidden import when there is one, and lets the allowed ones be", () => {
    const edge = (from: string, to: string): Edge => ({ from, line: 1, specifier: `@/${to}`, to });
    const studioToEngine = edge("lib/tasks/example.ts", "lib/engine/config.ts");
    expect(brokenRules([studioToEngine])).toEqual([
      `lib/tasks/example.ts:1 imports "@/lib/engine/config.ts" (lib/engine/config.ts): ${ENGINE_RULE}`,
    ]);
    const forbidden = [
      studioToEngine,
      edge("lib/engine/example.ts", "lib/tasks/read/queries.ts"),
      edge("components/example.tsx", "lib/db/index.ts"),
      edge("lib/x3d/example.ts", "lib/storage/index.ts"),
      edge("lib/files/example.ts", "lib/upload/check.ts"),
      edge("app/open-api/v1/example/route.ts", "lib/tasks/read/queries.ts"),
      edge("lib/upload/example.ts", "lib/tasks/lifecycle/refresh.test-helpers.ts"),
      edge("app/example/page.tsx", "lib/accounts/users.ts"),
      edge("components/example.tsx", "lib/accounts/current-user.ts"),
      edge("proxy.ts", "lib/accounts/authjs.ts"),
      edge("instrumentation.ts", "lib/accounts/users.ts"),
      edge("lib/tasks/example.ts", "lib/accounts/index.ts"),
      edge("lib/tasks/example.ts", "lib/accounts/authjs.ts"),
      edge("lib/credits/example.ts", "lib/tasks/lifecycle/service-errors.ts"),
    ];
    for (const e of forbidden) expect(brokenRules([e]), `${e.from} -> ${e.to}`).toHaveLength(1);
    const allowed = [
      edge("app/open-api/v1/example/route.ts", "lib/engine/handlers/create.ts"),
      edge("lib/start-services.ts", "lib/engine/boot.ts"),
      edge("lib/engine/example.ts", "lib/files/sniff.ts"),
      edge("lib/engine/example.ts", "lib/x3d/costs.ts"),
      edge("lib/tasks/example.ts", "lib/files/sniff.ts"),
      edge("lib/x3d/service.ts", "lib/embedded-credentials.ts"),
      edge("lib/display/example.test.ts", "lib/engine/formats/index.ts"),
      edge("components/example.tsx", "lib/tasks/model/task-types.ts"),
      edge("app/example/page.tsx", "lib/accounts/index.ts"),
      edge("components/example.tsx", "lib/accounts/index.ts"),
      edge("instrumentation.ts", "lib/accounts/stamp-client-address.ts"),
      edge("lib/tasks/example.ts", "lib/accounts/roles.ts"),
      edge("lib/accounts/index.ts", "lib/accounts/authjs.ts"),
      edge("lib/accounts/example.test.ts", "lib/accounts/users.ts"),
      edge("lib/credits/example.ts", "lib/db/index.ts"),
      edge("lib/accounts/users.ts", "lib/credits/ledger.ts"),
    ];
    expect(brokenRules(allowed)).toEqual([]);
  });

  it("has no import loop in lib/accounts", () => {
    expect(importLoops(edges, ACCOUNTS).map((loop) => loop.join(" -> "))).toEqual([]);
  });

  it("has no import loop in lib/tasks", () => {
    expect(importLoops(edges, "lib/tasks/").map((loop) => loop.join(" -> "))).toEqual([]);
  });

  it("keeps lib/tasks in stage order, and finds an import against it", () => {
    const edge = (from: string, to: string): Edge => ({ from, line: 1, specifier: `./${to}`, to });
    const againstStages = [
      edge("lib/tasks/model/example.ts", "lib/tasks/read/queries.ts"),
      edge("lib/tasks/read/example.ts", "lib/tasks/lifecycle/refresh.ts"),
      edge("lib/tasks/read/example.ts", "lib/tasks/create/create-task.ts"),
      edge("lib/tasks/lifecycle/example.ts", "lib/tasks/create/record.ts"),
      edge("lib/tasks/example.ts", "lib/tasks/model/settled.ts"),
    ];
    for (const e of againstStages)
      expect(brokenRules([e]), `${e.from} -> ${e.to}`).toEqual([`${e.from}:1 imports "./${e.to}" (${e.to}): ${TASK_STAGE_RULE}`]);
    const withStages = [
      edge("lib/tasks/model/example.ts", "lib/tasks/model/settled.ts"),
      edge("lib/tasks/read/example.ts", "lib/tasks/model/settled.ts"),
      edge("lib/tasks/lifecycle/example.ts", "lib/tasks/read/queries.ts"),
      edge("lib/tasks/create/example.ts", "lib/tasks/lifecycle/task-cache.ts"),
      edge("lib/tasks/model/example.test.ts", "lib/tasks/create/record.ts"),
    ];
    expect(brokenRules(withStages)).toEqual([]);
  });

  it("finds an import loop when there is one", () => {
    const edge = (from: string, to: string): Edge => ({ from, line: 1, specifier: `./${to}`, to });
    const loop = [
      edge("lib/accounts/roles.ts", "lib/accounts/current-user.ts"),
      edge("lib/accounts/current-user.ts", "lib/accounts/authjs.ts"),
      edge("lib/accounts/authjs.ts", "lib/accounts/roles.ts"),
      edge("lib/accounts/authjs.ts", "lib/accounts/users.ts"),
    ];
    expect(importLoops(loop, ACCOUNTS)).toEqual([
      ["lib/accounts/authjs.ts", "lib/accounts/roles.ts", "lib/accounts/current-user.ts", "lib/accounts/authjs.ts"],
    ]);
    expect(importLoops(loop.slice(1), ACCOUNTS)).toEqual([]);
  });

  it("writes the owner-scoped task condition once (lib/tasks/read/queries.ts: ownedBy)", () => {
    const written = [...new Set(edges.map((e) => e.from))]
      .filter((file) => !isTestCode(file) && file !== "lib/tasks/read/queries.ts")
      .filter((file) => /eq\(\s*studioTasks\.userId\s*,/.test(fs.readFileSync(path.join(ROOT, file), "utf8")));
    expect(written).toEqual([]);
  });

  it("reads static, re-exported, dynamic and type imports", () => {
    const text = [
      'import a from "./a";',
      'import type { B } from "@/b";',
      'export { c } from "./c";',
      'export * from "./d";',
      'const e = await import("./e");',
      'type F = import("./f").F;',
      'import "./g";',
      'const h = `import x from "./h"`;',
    ].join("\n");
    expect(importSpecifiers("x.ts", text).map((i) => i.specifier)).toEqual(["./a", "@/b", "./c", "./d", "./e", "./f", "./g"]);
  });
});
