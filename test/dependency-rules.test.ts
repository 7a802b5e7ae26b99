/**
 * The import rules (.dependency-cruiser.cjs, run on the repository by `npm run lint:deps`) each
 * fail on a planted break: a scratch tree shaped like the repository holds one file per rule that
 * breaks that rule only, and files that every rule allows. dependency-cruiser runs on it once
 * with the repository's configuration, and each planted file must be reported by its own rule and
 * by no other; the allowed files by none.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./harness/temp-dir";

const ROOT = path.resolve(import.meta.dirname, "..");
const run = promisify(execFile);

/** Modules every planted file may import: one per place the rules name. */
const TARGETS: Record<string, string> = {
  "lib/engine/config.ts": "export const engine = 1;",
  "lib/x3d/costs.ts": "export const cost = 1;",
  "lib/env.ts": "export const env = 1;",
  "lib/files/sniff.ts": "export const sniff = 1;",
  "lib/db/index.ts": "export const db = 1;",
  "lib/upload/check.ts": "export const check = 1;",
  "lib/storage/index.ts": "export const storage = 1;",
  "lib/credits/ledger.ts": "export const ledger = 1;",
  "lib/accounts/index.ts": 'export { users } from "./users";\nexport { authjs } from "./authjs";',
  "lib/accounts/users.ts": "export const users = 1;",
  "lib/accounts/authjs.ts": "export const authjs = 1;",
  "lib/accounts/stamp-client-address.ts": "export const stamp = 1;",
  "lib/tasks/model/settled.ts": "export const settled = 1;",
  "lib/tasks/read/queries.ts": "export const queries = 1;",
  "lib/tasks/lifecycle/refresh.ts": "export const refresh = 1;",
  "lib/tasks/create/record.ts": "export const record = 1;",
  "lib/tasks/lifecycle/refresh.test-helpers.ts": "export const helper = 1;",
  "components/ui/button.tsx": "export const Button = 1;",
  "app/page.tsx": "export const Page = 1;",
  "test/harness/api.ts": "export const api = 1;",
};

/** One file per rule, breaking that rule only: [rule, file, its text]. */
const PLANTED: [rule: string, file: string, text: string][] = [
  ["no-circular", "lib/upload/loop-a.ts", 'import { b } from "./loop-b";\nexport const a = b;'],
  ["not-to-unresolvable", "lib/upload/missing.ts", 'import { gone } from "./not-there";\nexport const m = gone;'],
  [
    "not-to-test",
    "lib/upload/uses-helper.ts",
    'import { helper } from "@/lib/tasks/lifecycle/refresh.test-helpers";\nexport const u = helper;',
  ],
  ["not-to-test", "components/uses-harness.tsx", 'import { api } from "@/test/harness/api";\nexport const u = api;'],
  ["not-to-dev-dependency", "lib/upload/uses-vitest.ts", 'import { expect } from "vitest";\nexport const u = expect;'],
  [
    "engine-imports-only-contract-and-leaves",
    "lib/engine/uses-storage.ts",
    'import { storage } from "@/lib/storage";\nexport const u = storage;',
  ],
  [
    "open-api-routes-import-only-engine",
    "app/open-api/v1/example/route.ts",
    'import { check } from "@/lib/upload/check";\nexport const u = check;',
  ],
  [
    "engine-imported-only-by-its-routes-and-boot",
    "lib/upload/uses-engine.ts",
    'import { engine } from "@/lib/engine/config";\nexport const u = engine;',
  ],
  ["leaves-import-only-leaves", "lib/files/uses-upload.ts", 'import { check } from "@/lib/upload/check";\nexport const u = check;'],
  ["contract-imports-only-itself", "lib/x3d/uses-env.ts", 'import { env } from "@/lib/env";\nexport const u = env;'],
  [
    "contract-client-reads-only-env",
    "lib/x3d/service.ts",
    'import { env } from "@/lib/env";\nimport { cost } from "./costs";\nimport { storage } from "@/lib/storage";\nexport const u = [env, cost, storage];',
  ],
  ["components-not-to-engine-db-app", "components/uses-db.tsx", 'import { db } from "@/lib/db";\nexport const u = db;'],
  ["components-not-to-engine-db-app", "components/uses-app.tsx", 'import { Page } from "@/app/page";\nexport const u = Page;'],
  [
    "lib-not-to-components-app",
    "lib/upload/uses-component.ts",
    'import { Button } from "@/components/ui/button";\nexport const u = Button;',
  ],
  ["accounts-one-way-in", "app/uses-users.tsx", 'import { users } from "@/lib/accounts/users";\nexport const u = users;'],
  [
    "accounts-boot-only-stamp",
    "instrumentation.ts",
    'import { stamp } from "@/lib/accounts/stamp-client-address";\nimport { users } from "@/lib/accounts/users";\nexport const u = [stamp, users];',
  ],
  ["lib-not-to-accounts-index", "lib/upload/uses-accounts.ts", 'import { users } from "@/lib/accounts";\nexport const u = users;'],
  ["lib-not-to-accounts-index", "lib/upload/uses-authjs.ts", 'import { authjs } from "@/lib/accounts/authjs";\nexport const u = authjs;'],
  [
    "credits-imports-only-leaves",
    "lib/credits/uses-tasks.ts",
    'import { queries } from "@/lib/tasks/read/queries";\nexport const u = queries;',
  ],
  ["tasks-in-a-stage", "lib/tasks/loose.ts", 'import { settled } from "./model/settled";\nexport const u = settled;'],
  ["tasks-stage-model", "lib/tasks/model/uses-read.ts", 'import { queries } from "../read/queries";\nexport const u = queries;'],
  // A type written as import("…") and a dynamic import are imports too.
  ["tasks-stage-model", "lib/tasks/model/types-read.ts", 'export type U = typeof import("../read/queries").queries;'],
  ["engine-imported-only-by-its-routes-and-boot", "lib/upload/loads-engine.ts", 'export const u = () => import("@/lib/engine/config");'],
  ["tasks-stage-read", "lib/tasks/read/uses-lifecycle.ts", 'import { refresh } from "../lifecycle/refresh";\nexport const u = refresh;'],
  ["tasks-stage-lifecycle", "lib/tasks/lifecycle/uses-create.ts", 'import { record } from "../create/record";\nexport const u = record;'],
];

/** Files every rule allows (the companions of the planted ones, and the edges the rules let through). */
const ALLOWED: Record<string, string> = {
  "lib/upload/loop-b.ts": 'import type { a } from "./loop-a";\nexport const b = 1 as unknown as typeof a;',
  "app/open-api/v1/tasks/route.ts":
    'import { engine } from "@/lib/engine/config";\nimport { cost } from "@/lib/x3d/costs";\nexport const u = [engine, cost];',
  "lib/start-services.ts": 'import { engine } from "@/lib/engine/config";\nexport const u = engine;',
  "lib/engine/uses-contract.ts":
    'import { cost } from "@/lib/x3d/costs";\nimport { sniff } from "@/lib/files/sniff";\nimport { db } from "@/lib/db";\nexport const u = [cost, sniff, db];',
  "lib/tasks/lifecycle/uses-model-read.ts":
    'import { settled } from "../model/settled";\nimport { queries } from "../read/queries";\nexport const u = [settled, queries];',
  "lib/tasks/create/uses-lifecycle.ts":
    'import { refresh } from "../lifecycle/refresh";\nimport { ledger } from "@/lib/credits/ledger";\nexport const u = [refresh, ledger];',
  "lib/tasks/read/uses-users.ts": 'import { users } from "@/lib/accounts/users";\nexport const u = users;',
  "lib/credits/uses-db.ts": 'import { db } from "@/lib/db";\nexport const u = db;',
  "components/uses-accounts.tsx":
    'import { users } from "@/lib/accounts";\nimport { settled } from "@/lib/tasks/model/settled";\nexport const u = [users, settled];',
  "app/uses-accounts.tsx": 'import { users } from "@/lib/accounts";\nexport const u = users;',
  "lib/accounts/uses-ledger.ts": 'import { ledger } from "@/lib/credits/ledger";\nexport const u = ledger;',
  "lib/upload/reads.test.ts":
    'import { engine } from "@/lib/engine/config";\nimport { helper } from "@/lib/tasks/lifecycle/refresh.test-helpers";\nimport { expect } from "vitest";\nexport const u = [engine, helper, expect];',
  "lib/upload/uses-react.ts": 'import { useState } from "react";\nexport const u = useState;',
};

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

describe("the import rules", () => {
  let violations: Violation[] = [];
  const dir = tempDir("dependency-rules");

  beforeAll(async () => {
    const files: Record<string, string> = { ...TARGETS, ...ALLOWED, ...Object.fromEntries(PLANTED.map(([, file, text]) => [file, text])) };
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), `${text}\n`);
    }
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "scratch", type: "module", dependencies: { react: "*" }, devDependencies: { vitest: "*" } }),
    );
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { module: "esnext", moduleResolution: "bundler", jsx: "react-jsx", paths: { "@/*": ["./*"] } } }),
    );
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
    const config = path.join(ROOT, ".dependency-cruiser.cjs");
    const cli = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
    // The CLI exits non-zero when it finds violations, which is what this tree is for.
    const out = await run(
      process.execPath,
      [cli, "--config", config, "--output-type", "json", "app", "components", "lib", "test", "instrumentation.ts"],
      {
        cwd: dir,
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    violations = (JSON.parse(out.stdout) as { summary: { violations: Violation[] } }).summary.violations;
  }, 60_000);

  it("reads the scratch tree (a guard against a run that finds nothing)", () => {
    expect(violations.length).toBeGreaterThanOrEqual(PLANTED.length);
  });

  it.each(PLANTED)("%s fails on %s, and no other rule does", (rule, file) => {
    const rules = violations.filter((v) => v.from === file).map((v) => v.rule.name);
    expect(rules.length, `${file}: ${rules.join(", ")}`).toBeGreaterThan(0);
    expect(new Set(rules)).toEqual(new Set([rule]));
  });

  it("lets the allowed imports be", () => {
    const planted = new Set(PLANTED.map(([, file]) => file));
    const others = violations.filter((v) => !planted.has(v.from) && !(v.rule.name === "no-circular" && v.from === "lib/upload/loop-b.ts"));
    expect(others.map((v) => `${v.from} -> ${v.to}: ${v.rule.name}`)).toEqual([]);
  });

  it("names every rule of the configuration with a planted break", async () => {
    const { default: config } = (await import(path.join(ROOT, ".dependency-cruiser.cjs"))) as {
      default: { forbidden: { name: string }[] };
    };
    expect(new Set(PLANTED.map(([rule]) => rule))).toEqual(new Set(config.forbidden.map((r) => r.name)));
  });
});
