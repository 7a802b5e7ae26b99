import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { storeResult } from "./store-result";
import { tempDir } from "@/test/harness/temp-dir";

const root = tempDir("store-result");

describe("storeResult", () => {
  it("writes the result and cover into the task folder under their final names, nothing else", async () => {
    const dir = path.join(root, "task");
    const result = new Uint8Array([103, 108, 84, 70, 2, 0, 0, 0]);
    const cover = new Uint8Array([137, 80, 78, 71]);
    const stored = await storeResult(dir, { result, resultExt: "glb", cover, coverExt: "png" });
    expect(stored).toEqual({ resultFile: "result.glb", coverFile: "cover.png" });
    expect(fs.readdirSync(dir).sort()).toEqual(["cover.png", "result.glb"]);
    expect(new Uint8Array(fs.readFileSync(path.join(dir, "result.glb")))).toEqual(result);
    expect(new Uint8Array(fs.readFileSync(path.join(dir, "cover.png")))).toEqual(cover);
  });
});
