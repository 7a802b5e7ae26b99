// The repository stands alone: every relative link in its Markdown pages (README.md, docs/,
// CHANGELOG.md, reports/mutation/README.md) resolves to a file or folder of the repository (and
// to a heading, when it names one), and nothing points at the team's shared folder outside it
// (`../shared/...`).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUTSIDE_REPO = new Set(["node_modules", ".next", ".build", ".git", "data"]);

/** Pages outside docs/ that are checked too. */
const PAGES = ["README.md", "CHANGELOG.md", "reports/mutation/README.md"];

function markdownFiles(): string[] {
  const found = [...PAGES];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".md")) found.push(rel);
    }
  };
  walk("docs");
  return found;
}

/** The text without fenced code blocks and inline code, where brackets are not links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** Link targets: inline links and images `[text](target "title")`, and reference definitions `[x]: target`. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^\s)>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(([, target = ""]) => target);
  const references = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map(([, target = ""]) => target);
  return [...inline, ...references];
}

/** GitHub's anchors for the headings of a Markdown text. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading = ""] of markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** What is wrong with `target` as a link from `file` (repository-relative), or undefined. */
function problem(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // http:, https:, mailto:
  if (target.includes("shared/")) return "points at the shared folder outside the repository";
  const [pathPart = "", anchor] = target.split("#", 2);
  const resolved = pathPart === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(pathPart)));
  if (resolved.startsWith("../") || path.posix.isAbsolute(resolved)) return "leaves the repository";
  if (OUTSIDE_REPO.has(resolved.split("/")[0] ?? "")) return "points at a generated or ignored folder";
  const full = path.join(ROOT, resolved);
  if (!fs.existsSync(full)) return `${resolved} does not exist`;
  if (anchor && resolved.endsWith(".md") && !anchors(fs.readFileSync(full, "utf8")).has(anchor)) {
    return `${resolved} has no heading #${anchor}`;
  }
  return undefined;
}

function problems(file: string, markdown: string): string[] {
  const out: string[] = [];
  if (markdown.includes("../shared")) out.push(`${file} mentions ../shared`);
  for (const target of linkTargets(markdown)) {
    const why = problem(file, target);
    if (why) out.push(`${file}: (${target}) ${why}`);
  }
  return out;
}

describe("links in the Markdown pages", () => {
  it("the checker finds links and refuses bad ones", () => {
    const sample = [
      "[arch](architecture.md), [contract](contract/open-api.md#7-errors), ![img](style.md)",
      "[web](https://example.com) `[code](nowhere.md)`",
      "```\n[fenced](nowhere.md)\n```",
      "[ref]: contract.md",
    ].join("\n");
    expect(linkTargets(sample)).toEqual([
      "architecture.md",
      "contract/open-api.md#7-errors",
      "style.md",
      "https://example.com",
      "contract.md",
    ]);
    expect(problems("docs/sample.md", sample)).toEqual([]);
    expect(problems("docs/sample.md", "[gone](missing.md)")).toEqual(["docs/sample.md: (missing.md) docs/missing.md does not exist"]);
    expect(problems("docs/sample.md", "[anchor](architecture.md#no-such-heading)")).toEqual([
      "docs/sample.md: (architecture.md#no-such-heading) docs/architecture.md has no heading #no-such-heading",
    ]);
    expect(problems("README.md", "See `../shared/design/architecture.md`.")).toEqual(["README.md mentions ../shared"]);
    expect(problems("README.md", "[up](../elsewhere/file.md)")).toEqual(["README.md: (../elsewhere/file.md) leaves the repository"]);
    expect(anchors("# How results are made (`lib/engine/generate`, classical)\n## Tests\n## Tests")).toEqual(
      new Set(["how-results-are-made-libenginegenerate-classical", "tests", "tests-1"]),
    );
  });

  it("every relative link resolves inside the repository, and none goes to ../shared", () => {
    const files = markdownFiles();
    expect(files).toEqual(
      expect.arrayContaining([
        ...PAGES,
        "docs/README.md",
        "docs/architecture.md",
        "docs/contract.md",
        "docs/contract/open-api.md",
        "docs/configuration.md",
        "docs/style.md",
      ]),
    );
    const found = files.flatMap((file) => problems(file, fs.readFileSync(path.join(ROOT, file), "utf8")));
    expect(found).toEqual([]);
  });
});
