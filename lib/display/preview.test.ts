/**
 * preview.glb: made only for models over PREVIEW_TRIANGLES, simplified to at most that many
 * triangles (but not to a stub), 512-pixel WebP textures, smaller than display.glb.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { writeMesh, type MeshFormat } from "@/lib/engine/formats";
import type { MeshPart } from "@/lib/engine/mesh/types";
import { deriveDisplayCopies, PREVIEW_TRIANGLES, type SourceFormat } from "./derive";
import { countTriangles } from "./simplify-preview";
import { drawnVertices, expectValidGlb, readGlb, texturedSphere, withFacetColours } from "./display.test-helpers";
import { tempDir } from "@/test/harness/temp-dir";

const dir = tempDir("preview");

async function deriveFrom(label: string, part: MeshPart, code: MeshFormat, format: SourceFormat) {
  const input = path.join(dir, `${label}.${format}`);
  writeFileSync(input, (await writeMesh({ parts: [part] }, code)).bytes);
  const out = path.join(dir, label);
  mkdirSync(out);
  const started = performance.now();
  const copies = await deriveDisplayCopies(input, format, out);
  const files = { display: path.join(out, "display.glb"), preview: path.join(out, "preview.glb") };
  console.log(
    `${label}: ${((performance.now() - started) / 1000).toFixed(1)} s, display ${copies.display.triangles} triangles ${copies.display.bytes} bytes, preview ${copies.preview?.triangles} triangles ${copies.preview?.bytes} bytes`,
  );
  return { ...copies, files };
}

/** Width and height of every texture image in a written copy. */
async function textureSizes(file: string): Promise<Array<[number, number]>> {
  const doc = await readGlb(file);
  return Promise.all(
    doc
      .getRoot()
      .listTextures()
      .map(async (t) => {
        expect(t.getMimeType()).toBe("image/webp");
        const { width, height } = await sharp(t.getImage()!).metadata();
        return [width, height] as [number, number];
      }),
  );
}

describe("preview.glb", () => {
  it("a textured 404k-triangle GLB gets a preview of at most 200k triangles and 512-pixel textures", async () => {
    const sphere = texturedSphere(450, 450);
    const tris = sphere.indices.length / 3;
    expect(tris).toBeGreaterThan(2 * PREVIEW_TRIANGLES);
    const copies = await deriveFrom("sphere-glb", sphere, 2, "glb");
    expect(copies.display.triangles).toBe(tris);
    const preview = copies.preview!;
    expect(preview.file).toBe("preview.glb");
    expect(preview.triangles).toBeLessThanOrEqual(PREVIEW_TRIANGLES);
    expect(preview.triangles).toBeGreaterThan(50_000);
    expect(preview.bytes).toBeLessThan(copies.display.bytes);
    const bytes = await readFile(copies.files.preview);
    expect(bytes.byteLength).toBe(preview.bytes);
    await expectValidGlb(bytes, "sphere preview");
    const doc = await readGlb(copies.files.preview);
    expect(countTriangles(doc)).toBe(preview.triangles);
    // Still the sphere (radius 100 mm = 0.1 m in GLB): every vertex within 0.5% of its surface.
    const p = drawnVertices(doc).positions;
    for (let i = 0; i < p.length; i += 3) expect(Math.abs(Math.hypot(p[i]!, p[i + 1]!, p[i + 2]!) - 0.1)).toBeLessThan(0.0005);
    // The display copy's quantised vertices stay within 1e-3 of the bounding box's diagonal.
    const d = drawnVertices(await readGlb(copies.files.display)).positions;
    expect(d.length / 3).toBeGreaterThanOrEqual(p.length / 3);
    let worst = 0;
    for (let i = 0; i < d.length; i += 3) worst = Math.max(worst, Math.abs(Math.hypot(d[i]!, d[i + 1]!, d[i + 2]!) - 0.1));
    expect(worst).toBeLessThan(1e-3 * 0.2 * Math.sqrt(3));
    expect(await textureSizes(copies.files.display)).toEqual([[1024, 1024]]);
    expect(await textureSizes(copies.files.preview)).toEqual([[512, 512]]);
  });

  it("a flat-shaded STL loses its facet normals in the preview, so the simplifier can weld and work", async () => {
    const sphere = texturedSphere(400, 400);
    const copies = await deriveFrom("sphere-stl", sphere, 3, "stl");
    expect(copies.display.triangles).toBe(sphere.indices.length / 3);
    const preview = copies.preview!;
    expect(preview.triangles).toBeLessThanOrEqual(PREVIEW_TRIANGLES);
    expect(preview.triangles).toBeGreaterThan(50_000);
    expect(preview.bytes).toBeLessThan(copies.display.bytes);
    await expectValidGlb(await readFile(copies.files.preview), "stl preview");
    const prims = (await readGlb(copies.files.preview))
      .getRoot()
      .listMeshes()
      .flatMap((m) => m.listPrimitives());
    expect(prims.map((p) => p.getAttribute("NORMAL"))).toEqual(prims.map(() => null)); // drawn flat, as STL is
    // A welded closed surface: about one vertex per two triangles (unshared would be three).
    const vertices = prims.reduce((n, p) => n + p.getAttribute("POSITION")!.getCount(), 0);
    expect(vertices).toBeLessThan(preview.triangles);
    // The display copy keeps the facet normals.
    const display = (await readGlb(copies.files.display)).getRoot().listMeshes()[0]!.listPrimitives()[0]!;
    expect(display.getAttribute("NORMAL")).not.toBeNull();
  });

  it("facets of random colours (nothing to weld at all) still get under the budget", async () => {
    const sphere = texturedSphere(300, 400);
    const input = path.join(dir, "random-colours.stl");
    let seed = 1;
    const random = (): number => (seed = (seed * 48271) % 2147483647) & 0x7fff;
    writeFileSync(input, withFacetColours((await writeMesh({ parts: [sphere] }, 3)).bytes, random));
    const out = path.join(dir, "random-colours");
    mkdirSync(out);
    const copies = await deriveDisplayCopies(input, "stl", out);
    expect(copies.display.triangles).toBe(sphere.indices.length / 3);
    expect(copies.preview!.triangles).toBeLessThanOrEqual(PREVIEW_TRIANGLES);
    expect(copies.preview!.triangles).toBeGreaterThan(50_000);
    await expectValidGlb(await readFile(path.join(out, "preview.glb")), "random colours preview");
  });
});
