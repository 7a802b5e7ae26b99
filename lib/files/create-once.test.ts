import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readOrCreateFile } from "./create-once";
import { tempDir } from "@/test/harness/temp-dir";

const root = tempDir("create-once");

describe("readOrCreateFile", () => {
  it("creates the file once (0600, no temporary left), then reads what is there", () => {
    const file = path.join(root, "a", "secret");
    expect(readOrCreateFile(file, () => "first")).toBe("first");
    expect(readOrCreateFile(file, () => "second")).toBe("first");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["secret"]);
  });

  it("a file another process created meanwhile wins over ours", () => {
    const file = path.join(root, "raced");
    // make() runs after the read found nothing: another server writes the file in between.
    const got = readOrCreateFile(file, () => {
      fs.writeFileSync(file, "theirs");
      return "ours";
    });
    expect(got).toBe("theirs");
    expect(fs.readdirSync(root).filter((n) => n.startsWith("raced"))).toEqual(["raced"]);
  });
});
