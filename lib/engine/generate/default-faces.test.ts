// The service's default face count per resolution (a request without `face`): read by the
// validator for every model and resolution, and counted on a generated result for each default.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { validateSubmitTask } from "@/lib/engine/validate/submit-task";
import type { FormInput } from "@/lib/engine/validate/form";
import { MODEL_INFO, RESOLUTION_INFO, type Resolution } from "@/lib/x3d/options";
import { FACE_TOLERANCE } from "./face-target";
import { fixture } from "./generate.test-helpers";
import { runJob } from "./run-job";

/** A submit-task body with one image and no `face`. */
function request(model: string, resolution: string): FormInput {
  const path = fixture("robot.png");
  const head = fs.readFileSync(path).subarray(0, 64);
  return {
    fields: new Map([
      ["model", [model]],
      ["resolution", [resolution]],
      ["request_type", ["1"]],
      ["format", ["3"]],
    ]),
    files: new Map([["images", [{ field: "images", filename: "robot.png", path, size: fs.statSync(path).size, head }]]]),
  };
}

const pairs = Object.entries(MODEL_INFO).flatMap(([model, info]) => info.resolutions.map((r) => [model, r] as const));

describe("the default face count of each resolution", () => {
  it.each(pairs)("%s at %s: a request without face gets the resolution's count", (model, resolution) => {
    expect(validateSubmitTask(request(model, resolution)).options.face).toBe(RESOLUTION_INFO[resolution].faces);
  });

  // One model per distinct default count; the result is an STL, whose header says its triangle count.
  const byCount = new Map<number, readonly [string, Resolution]>();
  for (const [model, resolution] of pairs)
    if (!byCount.has(RESOLUTION_INFO[resolution].faces)) byCount.set(RESOLUTION_INFO[resolution].faces, [model, resolution]);

  it.each([...byCount.entries()])(
    "a result made with the default of %i faces has that many, within the tolerance",
    async (faces, [model, resolution]) => {
      const { options } = validateSubmitTask(request(model, resolution));
      const { result, resultExt } = await runJob({
        kind: "image-to-3d",
        ...options,
        images: [{ view: "front", path: fixture("robot.png") }],
      });
      expect(resultExt).toBe("stl");
      // Binary STL: an 80-byte header, then the triangle count.
      const triangles = new DataView(result.buffer, result.byteOffset).getUint32(80, true);
      expect(result.length).toBe(84 + 50 * triangles);
      expect(Math.abs(triangles / faces - 1)).toBeLessThanOrEqual(FACE_TOLERANCE);
    },
    180_000,
  );
});
