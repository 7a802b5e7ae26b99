/**
 * runDisplayJob: the bundled worker (built here as scripts/build-worker.mjs
 * builds it) writes the same files as the in-thread path; failures and timeouts reject and
 * leave no temporary files; without a bundled script the job runs in-thread.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeMesh } from "@/lib/engine/formats";
import { bundleWorker } from "@/scripts/worker-bundle.mjs";
import { cube, icosphere } from "@/lib/engine/formats/fixtures.test-helpers";
import { deriveDisplayCopies } from "./derive";
import { DISPLAY_WORKER_SCRIPT, handleDisplayJob, runDisplayJob } from "./run";
import { texturedSphere } from "./display.test-helpers";

const root = path.resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(path.join(tmpdir(), "x3d-display-run-"));
// Inside the checkout, so the bundle's external packages resolve from node_modules.
const bundleDir = mkdtempSync(path.join(root, "node_modules", ".x3d-display-worker-"));
const script = path.join(bundleDir, "display-worker.mjs");
let input: string;

beforeAll(async () => {
  await bundleWorker("lib/display/worker.ts", script);
  input = path.join(dir, "model.glb");
  writeFileSync(input, (await writeMesh({ parts: [cube(), icosphere()] }, 2)).bytes);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
});

const outDir = (name: string): string => {
  const out = path.join(dir, name);
  mkdirSync(out);
  return out;
};

describe("runDisplayJob", () => {
  it("in the bundled worker writes exactly what the in-thread path writes", async () => {
    const inThread = await deriveDisplayCopies(input, "glb", outDir("in-thread"));
    const viaWorker = await runDisplayJob(input, "glb", outDir("worker"), { script });
    expect(viaWorker.display.file).toBe("display.glb");
    expect(viaWorker.display).toEqual(inThread.display);
    expect(viaWorker.preview).toBeNull();
    const written = (name: string): Buffer => readFileSync(path.join(dir, name, "display.glb"));
    expect(Buffer.compare(written("worker"), written("in-thread"))).toBe(0);
  });

  it("derives a heavy model's preview in a second worker, the same as in this thread", async () => {
    const heavy = path.join(dir, "heavy.glb");
    writeFileSync(heavy, (await writeMesh({ parts: [texturedSphere(330, 330)] }, 2)).bytes);
    const inThread = await deriveDisplayCopies(heavy, "glb", outDir("heavy-in-thread"));
    const viaWorkers = await runDisplayJob(heavy, "glb", outDir("heavy-workers"), { script });
    expect(inThread.preview).not.toBeNull();
    expect(viaWorkers).toEqual(inThread);
    expect(readdirSync(path.join(dir, "heavy-workers")).sort()).toEqual(["display.glb", "preview.glb"]);
    const written = (name: string, file: string): Buffer => readFileSync(path.join(dir, name, file));
    expect(Buffer.compare(written("heavy-workers", "preview.glb"), written("heavy-in-thread", "preview.glb"))).toBe(0);
  }, 120_000);

  it("rejects with the worker's reason when the input cannot be read", async () => {
    const broken = path.join(dir, "broken.fbx");
    writeFileSync(broken, "not an fbx");
    const out = outDir("broken");
    await expect(runDisplayJob(broken, "fbx", out, { script })).rejects.toThrow(/FBX/);
    expect(readdirSync(out)).toEqual([]);
  });

  it("terminates a job that runs past its timeout and leaves no temporary files", async () => {
    const big = path.join(dir, "big.glb");
    writeFileSync(big, (await writeMesh({ parts: [texturedSphere(300, 300)] }, 2)).bytes);
    const out = outDir("timeout");
    const started = performance.now();
    await expect(runDisplayJob(big, "glb", out, { script, timeoutMs: 50 })).rejects.toThrow(/timed out/);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(readdirSync(out)).toEqual([]);
  });

  it("terminates the worker at once when its signal aborts (the server stopping), leaving no temporary files", async () => {
    // A stand-in worker that never answers: only the signal can end its job.
    const stuck = path.join(bundleDir, "stuck-worker.mjs");
    writeFileSync(stuck, "setInterval(() => {}, 1000);");
    const out = outDir("aborted");
    writeFileSync(path.join(out, "display.glb.0a1b2c.tmp"), "half a file");
    const stopping = new AbortController();
    const started = performance.now();
    setTimeout(() => stopping.abort(new Error("the server is shutting down")), 100);
    await expect(runDisplayJob(input, "glb", out, { script: stuck, signal: stopping.signal })).rejects.toThrow(/shutting down/);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(readdirSync(out)).toEqual([]);
  });

  it("a worker that runs out of memory fails its job, not the process", async () => {
    // A stand-in worker that grows its JavaScript heap without end: the limit must stop it.
    const hungry = path.join(bundleDir, "hungry-worker.mjs");
    writeFileSync(hungry, "const kept = []; for (;;) kept.push({ filler: new Array(1024).fill(Math.random()) });");
    const out = outDir("memory");
    writeFileSync(path.join(out, "display.glb.0a1b2c.tmp"), "half a file");
    await expect(runDisplayJob(input, "glb", out, { script: hungry, maxMemoryMb: 32 })).rejects.toThrow(/memory/i);
    expect(readdirSync(out)).toEqual([]);
  });

  it("runs in this thread when the bundled worker is missing", async () => {
    expect(DISPLAY_WORKER_SCRIPT).toBe(path.join(process.cwd(), ".build", "display-worker.mjs"));
    const copies = await runDisplayJob(input, "glb", outDir("fallback"), { script: path.join(dir, "no-such-worker.mjs") });
    expect(copies.display.triangles).toBe(92);
    expect(readdirSync(path.join(dir, "fallback"))).toEqual(["display.glb"]);
  });
});

describe("handleDisplayJob (the worker's message protocol)", () => {
  it("answers { ok: true, copies } for a job that succeeds", async () => {
    const out = outDir("protocol-ok");
    const reply = await handleDisplayJob({ stage: "display", input, format: "glb", outDir: out });
    expect(reply).toEqual({
      ok: true,
      stage: "display",
      result: { display: { file: "display.glb", bytes: expect.any(Number), triangles: 92 }, heavy: false },
    });
    const preview = await handleDisplayJob({ stage: "preview", outDir: out });
    expect(preview).toEqual({ ok: true, stage: "preview", result: { file: "preview.glb", bytes: expect.any(Number), triangles: 92 } });
  });

  it("answers { ok: false, message } instead of throwing", async () => {
    const reply = await handleDisplayJob({
      stage: "display",
      input: path.join(dir, "missing.glb"),
      format: "glb",
      outDir: outDir("protocol-missing"),
    });
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.message).toMatch(/ENOENT/);
  });
});
