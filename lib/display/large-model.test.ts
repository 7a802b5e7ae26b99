/**
 * At the scale of a default result: a 2M-triangle textured GLB (2048-pixel texture, what the service's
 * default image-to-3D writes) through deriveDisplayCopies, with time and sizes printed.
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { writeMesh } from "@/lib/engine/formats";
import { deriveDisplayCopies, PREVIEW_TRIANGLES } from "./derive";
import { gradientTexture, texturedSphere } from "./display.test-helpers";
import { tempDir } from "@/test/harness/temp-dir";

const dir = tempDir("display-bench");

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(2)} MB`;

it("2M-triangle textured GLB: display.glb and preview.glb", async () => {
  const sphere = texturedSphere(1000, 1000);
  sphere.material!.baseColorTexture = gradientTexture(2048);
  const input = path.join(dir, "2m.glb");
  writeFileSync(input, (await writeMesh({ parts: [sphere] }, 2)).bytes);
  const out = path.join(dir, "out");
  mkdirSync(out);
  const started = performance.now();
  const copies = await deriveDisplayCopies(input, "glb", out);
  const seconds = (performance.now() - started) / 1000;
  const preview = copies.preview!;
  console.log(
    `2M-triangle textured GLB: ${seconds.toFixed(1)} s; original ${mb(statSync(input).size)}, ` +
      `display ${mb(copies.display.bytes)} (${copies.display.triangles} triangles), preview ${mb(preview.bytes)} (${preview.triangles} triangles)`,
  );
  expect(copies.display.triangles).toBe(sphere.indices.length / 3);
  expect(preview.triangles).toBeLessThanOrEqual(PREVIEW_TRIANGLES);
  expect(preview.bytes).toBeLessThan(1e6);
  expect(copies.display.bytes).toBeLessThan(statSync(input).size / 4);
}, 120_000);
