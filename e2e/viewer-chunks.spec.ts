import { markersIn as found, recordScripts } from "../scripts/bench-studio/page-scripts.mjs";
import markers from "./viewer-chunks.json" with { type: "json" };
import { createImageTask, expect as baseExpect, test } from "./fixtures";

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 240_000 });

/**
 * Compressed JavaScript a GLB task page may fetch in all (its workers' scripts included). Issue
 * 30 asks for 300 kB; what is left is the framework and the page (about 205 kB with the viewer's
 * own code and tools), three.js (about 150 kB: WebGLRenderer and its shaders cannot be shaken
 * off, and the core keeps every class a lazy format loader imports), react-three-fiber with its
 * own React reconciler (about 45 kB), GLTFLoader, meshopt and the orbit controls. 440 kB
 * measured once ThreeCanvas registered only the classes the scenes draw (473.8 kB before, with
 * R3F's <Canvas> keeping all of three.js); this budget is that figure plus 3%, so that nothing
 * creeps back in. bench:studio prints the figure beside the 300 kB goal.
 */
const BUDGET_KB = 454;

test("a GLB task page fetches no format loader, no viewer tool before its first picture, and stays within its JS budget", async ({
  page,
  account,
  browser,
  baseURL,
}) => {
  void account; // signed in as a fresh user
  const id = await createImageTask(page);
  await expect(page.getByTestId("task-state")).toHaveText("Done", { timeout: 90_000 });
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 60_000 });

  // Cold: a new context, nothing cached.
  const context = await browser.newContext({ baseURL, storageState: await page.context().storageState() });
  try {
    const cold = await context.newPage();
    const { scripts, idle } = recordScripts(cold);
    await cold.goto(`/tasks/${encodeURIComponent(id)}`);
    await expect(cold.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
    // The print panel (the Print tab is open) loads after the first picture and measures the model.
    await expect(cold.getByTestId("printability")).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
    expect(await idle(), "the network went quiet within a minute").toBe(true);
    // When each of the page's own scripts was asked for, and when the viewer first drew a model
    // (its x3d:drawn mark): one clock, the page's. Workers' scripts are not in the page's timeline.
    const { drawn, starts } = await cold.evaluate(() => ({
      drawn: performance.getEntriesByName("x3d:drawn")[0]?.startTime ?? NaN,
      starts: performance.getEntriesByType("resource").map((e) => [e.name, e.startTime] as const),
    }));
    expect(drawn).toBeGreaterThan(0);
    const startOf = new Map(starts);
    const all = [...scripts.values()];
    const beforePicture = all.filter((s) => (startOf.get(s.url) ?? Infinity) < drawn);

    // Soft: every problem is reported, not only the first.
    // No format loader at all: a GLB needs GLTFLoader (and meshopt) only.
    expect.soft(all.flatMap((s) => found(markers.loaders, s.body).map((m) => `${m} in ${s.url}`))).toEqual([]);
    // No viewer tool among what the first picture waited for.
    expect.soft(beforePicture.flatMap((s) => found(markers.tools, s.body).map((m) => `${m} in ${s.url}`))).toEqual([]);
    // The markers do name the built code: the glTF loader came before the picture, the print panel after it.
    expect(beforePicture.some((s) => found(markers.viewer, s.body).includes("glTF loader"))).toBe(true);
    expect(all.filter((s) => !beforePicture.includes(s)).some((s) => found(markers.tools, s.body).includes("print panel"))).toBe(true);

    const kB = all.reduce((a, s) => a + s.bytes, 0) / 1024;
    test.info().annotations.push({
      type: "JS",
      description: `${kB.toFixed(1)} kB compressed in ${all.length} scripts, ${(beforePicture.reduce((a, s) => a + s.bytes, 0) / 1024).toFixed(1)} kB before the first picture`,
    });
    expect(kB, all.map((s) => `${(s.bytes / 1024).toFixed(1)} kB ${s.url}`).join("\n")).toBeLessThanOrEqual(BUDGET_KB);
  } finally {
    await context.close();
  }
});
