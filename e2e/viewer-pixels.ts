import type { Page } from "@playwright/test";

/** Keeps a copy of the viewer canvas's pixels in the page under `name`. */
async function keepPixels(page: Page, name: string): Promise<void> {
  await page.getByTestId("viewer-canvas").evaluate((c: HTMLCanvasElement, key: string) => {
    const copy = document.createElement("canvas");
    copy.width = c.width;
    copy.height = c.height;
    const ctx = copy.getContext("2d");
    if (!ctx) throw new Error("no 2d context");
    ctx.drawImage(c, 0, 0);
    const store = ((window as unknown as { kept?: Record<string, Uint8ClampedArray> }).kept ??= {});
    store[key] = ctx.getImageData(0, 0, c.width, c.height).data;
  }, name);
}

/** Share of pixels (0–1) that differ clearly between two kept copies of the canvas. */
export async function changedShare(page: Page, a: string, b: string): Promise<number> {
  return page.evaluate(
    ([ka, kb]) => {
      const store = (window as unknown as { kept: Record<string, Uint8ClampedArray> }).kept;
      const x = store[ka];
      const y = store[kb];
      if (!x || !y || x.length !== y.length) throw new Error(`pixels ${ka} and ${kb} not comparable`);
      let differ = 0;
      for (let i = 0; i < x.length; i += 4) {
        const d =
          Math.abs((x[i] ?? 0) - (y[i] ?? 0)) + Math.abs((x[i + 1] ?? 0) - (y[i + 1] ?? 0)) + Math.abs((x[i + 2] ?? 0) - (y[i + 2] ?? 0));
        if (d > 30) differ++;
      }
      return differ / (x.length / 4);
    },
    [a, b] as const,
  );
}

/** Keeps the canvas as `name` and answers its change from `from`, for expect.poll. */
export async function changeFrom(page: Page, from: string, name = "now"): Promise<number> {
  await keepPixels(page, name);
  return changedShare(page, from, name);
}

/**
 * Keeps the canvas as `name` once the viewer shows all it will of the model when left alone,
 * and two copies 300 ms apart agree (the last key or click has been drawn). All it will show:
 * full detail (not the preview) and the measuring grid under it, which comes once the model
 * has been measured in a worker (the scale bar appears then). A picture taken without the
 * grid differed from a later one by 1.4% of its pixels on a loaded machine.
 */
export async function keepSettledPixels(page: Page, name: string): Promise<void> {
  await page.locator('[data-testid="model-viewer"][data-state="ready"]').waitFor({ timeout: 60_000 });
  await page.getByTestId("scale-bar").waitFor({ state: "attached", timeout: 60_000 });
  for (let i = 0; i < 30; i++) {
    await keepPixels(page, `${name}-before`);
    await page.waitForTimeout(300);
    await keepPixels(page, name);
    if ((await changedShare(page, `${name}-before`, name)) < 0.0005) return;
  }
  throw new Error(`the canvas did not settle for ${name}`);
}
