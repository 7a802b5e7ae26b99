import type { Page } from "@playwright/test";
import { createImageTask, drawnShare, expect as baseExpect, fixture, test } from "./fixtures";

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 180_000 });

/** The data-state values the viewer root took, in order (recorded in the page from the start). */
async function recordViewerStates(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { viewerStates: string[] }).viewerStates = seen;
    new MutationObserver(() => {
      const state = document.querySelector("[data-testid=model-viewer]")?.getAttribute("data-state");
      if (state && seen.at(-1) !== state) seen.push(state);
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"] });
  });
}

for (const [format, faces] of [
  ["OBJ", 100_000],
  ["STL", 100_000],
] as const) {
  test(`a ${format} result is shown from its GLB display copy, and the download stays ${format}`, async ({ page, account }) => {
    void account; // signed in as a fresh user
    const id = await createImageTask(page, { image: fixture("chair.png"), format, faces });
    await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
    const fetched: string[] = [];
    page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
    await page.reload();
    await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
    await expect.poll(() => drawnShare(page), { timeout: 30_000 }).toBeGreaterThan(0.03);
    expect(fetched).toContain(`/api/files/${id}/display`);
    expect(fetched).not.toContain(`/api/files/${id}/result`);
    const download = page.getByRole("link", { name: `Download ${format === "OBJ" ? "ZIP" : format}` });
    await expect(download).toHaveAttribute("href", `/api/files/${id}/result?download=1`);
    const original = await page.request.get(`/api/files/${id}/result?download=1`);
    const magic = (await original.body()).subarray(0, 2).toString("latin1");
    // OBJ results come zipped with their MTL and texture (PK); STL is binary with an 80-byte header.
    if (format === "OBJ") expect(magic).toBe("PK");
    else expect((await original.body()).length).toBeGreaterThan(84);
  });
}

test("a large GLB result shows a light preview first, then full detail", async ({ page, account }) => {
  void account; // signed in as a fresh user
  const id = await createImageTask(page, { image: fixture("chair.png"), faces: 500_000 });
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  await recordViewerStates(page);
  const fetched: string[] = [];
  page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
  await page.reload();
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  await expect.poll(() => drawnShare(page), { timeout: 30_000 }).toBeGreaterThan(0.03);
  expect(fetched).toEqual(expect.arrayContaining([`/api/files/${id}/preview`, `/api/files/${id}/display`]));
  const states = await page.evaluate(() => (window as unknown as { viewerStates: string[] }).viewerStates);
  expect(states.at(-1)).toBe("ready");
  expect(states).toContain("preview");
  expect(states).not.toContain("error");
  // Full detail reaches the screen in one frame after it was parsed: an invalidate left to a
  // passive effect used to run after that frame and cost a second one (0.45 s at 2M triangles).
  const phases = await page.evaluate(() =>
    performance
      .getEntriesByType("mark")
      .filter((m) => m.name.startsWith("x3d:"))
      .map((m) => ({ phase: m.name.slice(4), url: String((m as PerformanceMark).detail), t: m.startTime })),
  );
  const parsed = phases.find((p) => p.phase === "parsed" && p.url.endsWith("/display"));
  const drawn = phases.find((p) => p.phase === "drawn" && p.url.endsWith("/display"));
  expect(parsed && drawn, JSON.stringify(phases)).toBeTruthy();
  const frames = phases.filter((p) => p.phase === "frame" && p.t >= parsed!.t && p.t <= drawn!.t);
  expect(frames, JSON.stringify(phases)).toHaveLength(1);
  // The preview too is drawn once: the orbit controls joining after its first frame (drei's
  // makeDefault, a passive effect) and the plain lights' environment hook used to ask for a
  // second frame of the same picture, which held its "preview" state back by that frame.
  const previewParsed = phases.find((p) => p.phase === "parsed" && p.url.endsWith("/preview"));
  const displayLoad = phases.find((p) => p.phase === "load" && p.url.endsWith("/display"));
  expect(previewParsed && displayLoad, JSON.stringify(phases)).toBeTruthy();
  const previewFrames = phases.filter((p) => p.phase === "frame" && p.t >= previewParsed!.t && p.t <= displayLoad!.t);
  expect(previewFrames, JSON.stringify(phases)).toHaveLength(1);
  // Then the grid and the scale bar join full detail in one more frame (the scale bar is sized in
  // it), not two: the measuring scene's invalidate on mount was a passive effect, after that frame.
  const scaleBar = page.getByTestId("scale-bar");
  await expect.poll(async () => (await scaleBar.boundingBox())?.width ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
  await page.waitForTimeout(1_500);
  const later = await page.evaluate(() =>
    performance
      .getEntriesByType("mark")
      .filter((m) => m.name === "x3d:frame")
      .map((m) => m.startTime),
  );
  expect(
    later.filter((t) => t > drawn!.t),
    JSON.stringify(phases),
  ).toHaveLength(1);
  // Full detail keeps every triangle of the result (the preview has at most 200,000).
  await expect(page.getByTestId("viewer-stats")).toHaveText(/^(4|5)\d\d,\d{3} triangles/);
});
