import type { Locator } from "@playwright/test";
import sharp from "sharp";

/**
 * Where a slider's thumb and mark are drawn, in page px, read from the pixels of its 24 px row:
 * the thumb is a native range's own (a pseudo-element, with no box to ask for). The 20 px thumb,
 * centred, is all that crosses row 4 (the track is rows 9-14); only the mark reaches row 0.
 * Read with the slider neither hovered nor focused (a ring widens the thumb, evenly).
 */
export async function drawnSlider(root: Locator): Promise<{ thumb: number; mark: number | undefined }> {
  const box = await root.boundingBox();
  if (!box) throw new Error("the slider is not laid out");
  const { data, info } = await sharp(await root.screenshot())
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [0, 1, 2].map((c) => data[(y * info.width + x) * info.channels + c] ?? 0);
  // The page behind, right of the thumb (no slider here rests at its maximum).
  const behind = at(info.width - 1, 4);
  const centre = (y: number): number | undefined => {
    const xs: number[] = [];
    for (let x = 0; x < info.width; x++) {
      const d = at(x, y).reduce((sum, v, c) => sum + Math.abs(v - (behind[c] ?? 0)), 0);
      if (d > 60) xs.push(x);
    }
    const [first, last] = [xs[0], xs.at(-1)];
    return first === undefined || last === undefined ? undefined : box.x + ((first + last + 1) / 2) * (box.width / info.width);
  };
  const thumb = centre(4);
  if (thumb === undefined) throw new Error("no thumb drawn on the slider");
  return { thumb, mark: centre(0) };
}
