/**
 * knip (knip.jsonc, run on the repository by `npm run lint:unused`, a step of `npm test`) fails on
 * planted dead code: a copy of the repository's sources with an unused file, an unused export, an
 * unused exported type and an unused dependency added must report exactly those four, and the
 * copy without them must report nothing.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./harness/temp-dir";

const ROOT = path.resolve(import.meta.dirname, "..");
const run = promisify(execFile);
/** What knip reads: the sources and the root files (its configuration, package.json, tsconfig.json, the tools' configuration). */
const COPIED_DIRS = ["app", "components", "lib", "scripts", "test", "e2e"];
const SKIPPED = /(^|\/)(node_modules|\.next|\.build|data|test-results|fixtures)(\/|$)/;

interface KnipIssues {
  issues: {
    file: string;
    files: { name: string }[];
    exports: { name: string }[];
    types: { name: string }[];
    dependencies: { name: string }[];
  }[];
}

/** knip's findings in `dir`, one line each: "kind file name". */
async function knip(dir: string): Promise<string[]> {
  const cli = path.join(ROOT, "node_modules/knip/bin/knip.js");
  // knip exits non-zero when it finds something, which is what the planted copy is for.
  const out = await run(process.execPath, [cli, "--no-config-hints", "--reporter", "json"], {
    cwd: dir,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  const { issues } = JSON.parse(out.stdout) as KnipIssues;
  return issues.flatMap((i) => [
    ...i.files.map((f) => `file ${f.name}`),
    ...i.exports.map((e) => `export ${i.file} ${e.name}`),
    ...i.types.map((t) => `type ${i.file} ${t.name}`),
    ...i.dependencies.map((d) => `dependency ${i.file} ${d.name}`),
  ]);
}

describe("unused code", () => {
  const dir = tempDir("unused-code");
  let clean: string[] = [];
  let planted: string[] = [];

  beforeAll(async () => {
    for (const name of fs.readdirSync(ROOT)) {
      const full = path.join(ROOT, name);
      if (COPIED_DIRS.includes(name))
        fs.cpSync(full, path.join(dir, name), { recursive: true, filter: (src) => !SKIPPED.test(path.relative(ROOT, src)) });
      else if (fs.statSync(full).isFile() && !name.endsWith(".tsbuildinfo")) fs.copyFileSync(full, path.join(dir, name));
    }
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
    clean = await knip(dir);

    fs.writeFileSync(path.join(dir, "lib/upload/planted-unused.ts"), "export const nobodyImportsThisFile = 1;\n");
    fs.appendFileSync(
      path.join(dir, "lib/files/sniff.ts"),
      "\nexport const plantedUnusedExport = 1;\nexport type PlantedUnusedType = number;\n",
    );
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    // A package that is installed (a dependency of a dependency) but that no file imports.
    pkg.dependencies["picocolors"] = "*";
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2));
    planted = await knip(dir);
  }, 120_000);

  it("finds nothing unused in the repository's sources", () => {
    expect(clean).toEqual([]);
  });

  it("finds the planted unused file, export, type and dependency, and nothing else", () => {
    expect(planted.sort()).toEqual(
      [
        "file lib/upload/planted-unused.ts",
        "export lib/files/sniff.ts plantedUnusedExport",
        "type lib/files/sniff.ts PlantedUnusedType",
        "dependency package.json picocolors",
      ].sort(),
    );
  });
});
