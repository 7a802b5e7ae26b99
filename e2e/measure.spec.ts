import fs from "node:fs";
import { DOMParser } from "@xmldom/xmldom";
import type { Page } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import sharp from "sharp";
import { Document, NodeIO } from "@gltf-transform/core";
import { cubeSoup } from "../lib/viewer/mesh-analysis.test-helpers";
import { chooseOption, createImageTask, expect as baseExpect, fixture, test, newTaskShown, setFiles } from "./fixtures";

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

/**
 * A 300 × 200 image, black on the left half and white on the right: with the background kept,
 * its relief is a 120 × 80 mm plate, 1 mm thick (the base) on the left and 1 + 1.3 mm on the
 * right (the relief height), so 120 × 80 × (1 + 2.3) / 2 mm³ = 15.84 cm³.
 */
async function stepImage(): Promise<string> {
  const w = 300,
    h = 200;
  const pixels = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = w / 2; x < w; x++) pixels.fill(255, (y * w + x) * 3, (y * w + x) * 3 + 3);
  // Under the test's output folder (test-results/, emptied by Playwright at each run).
  const file = test.info().outputPath("step.png");
  await sharp(pixels, { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toFile(file);
  return file;
}

async function createRelief(page: Page): Promise<string> {
  await page.goto("/new/depth");
  await setFiles(page.getByTestId("image-drop-input"), await stepImage());
  await expect(page.getByTestId("image-drop").getByText("Uploaded")).toBeVisible();
  await chooseOption(page, "Quality", "Base");
  await page.getByLabel("Width (mm, exact)").fill("120");
  await page.getByRole("switch", { name: "Remove background" }).click();
  await page.getByRole("button", { name: "Make the depth map" }).click();
  await page.goto(`/tasks/${await newTaskShown(page)}`);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  return new URL(page.url()).pathname.split("/").pop() ?? "";
}

/** The number in a figure the page shows ("15.8 cm³" -> 15.8). */
async function figure(page: Page, testId: string): Promise<number> {
  return Number((await page.getByTestId(testId).innerText()).replace(/[^\d.]/g, ""));
}

async function download(page: Page, name: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name, exact: true }).click()]);
  const where = await file.path();
  return fs.readFileSync(where);
}

test("a 120 mm relief of a 3:2 image measures 120 × 80 × 2.3 mm, is watertight, and prints at that size", async ({
  page,
  account,
  browser,
}) => {
  void account; // signed in as a fresh user
  await createRelief(page);
  await expect(page.getByTestId("dimensions")).toHaveText("120.0 × 80.0 × 2.3 mm", { timeout: 60_000 });
  await expect(page.getByTestId("printability")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  await expect(page.getByTestId("print-watertight")).toHaveText("watertight");
  await expect(page.getByTestId("print-non-manifold")).toHaveText("0");
  await expect(page.getByTestId("print-shells")).toHaveText("1");
  // 15.84 cm³, give or take the filtered edge between the two halves.
  expect(Math.abs((await figure(page, "print-volume")) - 15.84)).toBeLessThanOrEqual(0.15);
  // Top and bottom 2 × 96 cm², the 8 cm ends 8 × 0.1 + 8 × 0.23, the 12 cm sides 2 × 6 × (0.1 + 0.23)
  // and the step 8 × 0.13: 199.64 cm².
  expect(Math.abs((await figure(page, "print-area")) - 199.64)).toBeLessThanOrEqual(0.5);
  // Every wall is at least the 1 mm base: none under the 0.8 mm minimum.
  await expect(page.getByTestId("print-thin")).toHaveText(/^0 of [\d,]+ faces$/, { timeout: 60_000 });
  // A relief is sized by its options: no height to choose.
  await expect(page.getByLabel("Height (mm)")).toHaveCount(0);

  // The 3MF is in millimetres, one object, 120 × 80 × 2.3 mm standing on the plate (Z up).
  const files = unzipSync(new Uint8Array(await download(page, "Download 3MF for printing")));
  const modelFile = files["3D/3dmodel.model"];
  expect(modelFile).toBeDefined();
  const model = new DOMParser().parseFromString(strFromU8(modelFile ?? new Uint8Array()), "text/xml").documentElement;
  expect(model?.getAttribute("unit")).toBe("millimeter");
  expect(model?.getElementsByTagName("object").length).toBe(1);
  const vertices = Array.from(model?.getElementsByTagName("vertex") ?? []);
  const extent = (axis: string) => {
    const values = vertices.map((v) => Number(v.getAttribute(axis)));
    return Math.round((Math.max(...values) - Math.min(...values)) * 10) / 10;
  };
  expect([extent("x"), extent("y"), extent("z")]).toEqual([120, 80, 2.3]);

  // The STL holds the same triangles, in millimetres, Z up.
  const stl = await download(page, "Download STL for printing");
  const triangles = stl.readUInt32LE(80);
  expect(stl.length).toBe(84 + triangles * 50);
  let maxZ = 0;
  for (let t = 0; t < triangles; t++) for (let v = 0; v < 3; v++) maxZ = Math.max(maxZ, stl.readFloatLE(84 + t * 50 + 12 + v * 12 + 8));
  expect(Math.round(maxZ * 10) / 10).toBe(2.3);

  // The measuring tool: two clicks 160 px apart on the screen's centre line, which runs across the
  // plate at the depth of the orbit's centre, read 160 px at the scale bar's pixels per mm (the step
  // between the two halves moves the hits by about a millimetre).
  await expect(page.getByTestId("scale-bar")).toHaveAttribute("data-mm", /^\d+(\.\d+)?$/);
  const bar = page.getByTestId("scale-bar");
  const pxPerMm = ((await bar.boundingBox())?.width ?? 0) / Number(await bar.getAttribute("data-mm"));
  await expect(bar).toHaveText(`${await bar.getAttribute("data-mm")} mm`);
  await page.getByRole("button", { name: "Measure" }).click();
  const canvas = page.getByTestId("viewer-canvas");
  const box = await canvas.boundingBox();
  const [cx, cy] = [(box?.width ?? 0) / 2, (box?.height ?? 0) / 2];
  await canvas.click({ position: { x: cx - 80, y: cy } });
  await expect(page.getByTestId("measure-distance")).toHaveText("Click a second point");
  await canvas.click({ position: { x: cx + 80, y: cy } });
  await expect(page.getByTestId("measure-distance")).toHaveText(/^Distance: [\d.]+ mm$/);
  const distance = Number((await page.getByTestId("measure-distance").innerText()).replace(/[^\d.]/g, ""));
  expect(Math.abs(distance - 160 / pxPerMm), `${distance} mm against ${160 / pxPerMm} mm`).toBeLessThanOrEqual(3);

  // A share link shows the same size to anyone (on the share page's Print tab, open by default).
  await page.getByRole("tab", { name: "Share" }).click();
  await page.getByRole("button", { name: "Create share link" }).click();
  const link = await page.getByTestId("share-link").inputValue();
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(link);
  await expect(visitor.getByTestId("dimensions")).toHaveText("120.0 × 80.0 × 2.3 mm", { timeout: 60_000 });
  await expect(visitor.getByTestId("print-watertight")).toHaveText("watertight", { timeout: 60_000 });
});

test("a unitless model is measured at 100 mm high until another height is chosen, which scales the rest", async ({ page, account }) => {
  void account; // signed in as a fresh user
  // The display copy is meshopt (no Draco decoder workers): any worker is the print analysis's.
  const workers: string[] = [];
  page.on("worker", (worker) => workers.push(worker.url()));
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await createImageTask(page);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  const height = page.getByLabel("Height (mm)");
  await expect(height).toHaveValue("100", { timeout: 60_000 });
  await expect(page.getByTestId("dimensions")).toHaveText(/^\d+\.\d × \d+\.\d × 100\.0 mm$/, { timeout: 60_000 });
  await expect(page.getByTestId("printability")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  // Its 500,000 triangles were analysed off the page's thread, within the page's policy.
  expect(workers.length).toBeGreaterThan(0);
  expect(violations).toEqual([]);
  const [w, d] = (await page.getByTestId("dimensions").innerText()).split(" × ").map(Number);
  const volume = await figure(page, "print-volume");
  const area = await figure(page, "print-area");
  expect(volume).toBeGreaterThan(0);

  await height.fill("50");
  // Half the height: half the width and depth, an eighth of the volume, a quarter of the area.
  await expect(page.getByTestId("dimensions")).toHaveText(/ × 50\.0 mm$/);
  const [w2, d2] = (await page.getByTestId("dimensions").innerText()).split(" × ").map(Number);
  expect(Math.abs((w2 ?? 0) - (w ?? 0) / 2)).toBeLessThanOrEqual(0.1);
  expect(Math.abs((d2 ?? 0) - (d ?? 0) / 2)).toBeLessThanOrEqual(0.1);
  expect(Math.abs((await figure(page, "print-volume")) - volume / 8)).toBeLessThanOrEqual(0.1);
  expect(Math.abs((await figure(page, "print-area")) - area / 4)).toBeLessThanOrEqual(0.1);

  // The choice is kept in this browser.
  await page.reload();
  await expect(page.getByLabel("Height (mm)")).toHaveValue("50", { timeout: 60_000 });
  await expect(page.getByTestId("dimensions")).toHaveText(/ × 50\.0 mm$/, { timeout: 60_000 });
});

/** A closed unit cube (8 shared corners, 12 outward triangles) as a GLB file. */
async function unitCubeGlb(): Promise<string> {
  const corners: number[] = [];
  const indices: number[] = [];
  for (const triangle of cubeSoup(1)) {
    for (let k = 0; k < 9; k += 3) {
      const corner = triangle.slice(k, k + 3);
      let at = corners.findIndex((_, i) => i % 3 === 0 && corners.slice(i, i + 3).every((c, j) => c === corner[j]));
      if (at < 0) {
        at = corners.length;
        corners.push(...corner);
      }
      indices.push(at / 3);
    }
  }
  const doc = new Document();
  const buffer = doc.createBuffer();
  const prim = doc
    .createPrimitive()
    .setAttribute("POSITION", doc.createAccessor().setType("VEC3").setArray(new Float32Array(corners)).setBuffer(buffer))
    .setIndices(doc.createAccessor().setType("SCALAR").setArray(new Uint32Array(indices)).setBuffer(buffer));
  doc.createScene().addChild(doc.createNode("cube").setMesh(doc.createMesh("cube").addPrimitive(prim)));
  const file = test.info().outputPath("cube.glb");
  fs.writeFileSync(file, await new NodeIO().writeBinary(doc));
  return file;
}

test("a textured unit cube measures 100 mm a side at the default height: watertight, 1,000 cm³, 600 cm²", async ({ page, account }) => {
  void account; // signed in as a fresh user
  await page.goto("/new/texture");
  await setFiles(page.getByTestId("mesh-drop-input"), await unitCubeGlb());
  await expect(page.getByTestId("mesh-drop").getByText("Uploaded")).toBeVisible();
  await setFiles(page.getByTestId("image-drop-input"), fixture("chair.png"));
  await expect(page.getByTestId("image-drop").getByText("Uploaded")).toBeVisible();
  await chooseOption(page, "Model", "v1.5");
  await page.getByRole("button", { name: "Texture the model" }).click();
  await page.goto(`/tasks/${await newTaskShown(page)}`);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });

  await expect(page.getByTestId("dimensions")).toHaveText("100.0 × 100.0 × 100.0 mm", { timeout: 60_000 });
  await expect(page.getByTestId("printability")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  // Texture seams duplicate corners; welded by position, the cube is closed again.
  await expect(page.getByTestId("print-watertight")).toHaveText("watertight");
  await expect(page.getByTestId("print-non-manifold")).toHaveText("0");
  await expect(page.getByTestId("print-shells")).toHaveText("1");
  await expect(page.getByTestId("print-volume")).toHaveText("1,000.0 cm³");
  await expect(page.getByTestId("print-area")).toHaveText("600.0 cm²");
  await expect(page.getByTestId("print-thin")).toHaveText("0 of 12 faces");

  // 20 mm high: 8 cm³ and 24 cm²; at 0.5 mm every face is a wall thinner than 0.8 mm.
  await page.getByLabel("Height (mm)").fill("20");
  await expect(page.getByTestId("dimensions")).toHaveText("20.0 × 20.0 × 20.0 mm");
  await expect(page.getByTestId("print-volume")).toHaveText("8.0 cm³");
  await expect(page.getByTestId("print-area")).toHaveText("24.0 cm²");
  await expect(page.getByTestId("print-thin")).toHaveText("0 of 12 faces");
  await page.getByLabel("Height (mm)").fill("0.5");
  await expect(page.getByTestId("dimensions")).toHaveText("0.5 × 0.5 × 0.5 mm");
  await expect(page.getByTestId("print-thin")).toHaveText("12 of 12 faces");
});
