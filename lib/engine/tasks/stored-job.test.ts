import { describe, expect, it } from "vitest";
import { parseStored } from "./stored-job";

const image = { images: [{ key: "front", source: { file: "image-front.png" } }] };
const submitted = {
  requestType: 3,
  model: "x3dv3.0",
  resolution: "2048quality",
  face: 2_000_000,
  pbr: true,
  rmbg: true,
  shading: 0.5,
  format: 2,
};

describe("stored jobs", () => {
  it("reads rows as the validators write them, for every kind", () => {
    expect(parseStored("image-to-3d", submitted, image).options).toEqual(submitted);
    const split = { model: "character", part: "a", joint: "ball", merge: true, level: "medium", format: 1 };
    expect(parseStored("split", split, { mesh: { url: "https://x.test/m.glb" } }).options).toEqual(split);
    const depth = {
      modelType: "pro",
      heightRelief: 1.3,
      rmbg: true,
      degreeRmbg: 0.02,
      shapeBase: 0,
      thicknessBase: 1,
      width: 40,
      sculpmode: 0,
      format: 3,
    };
    expect(parseStored("depth", depth, { image: { file: "image.png" } }).options).toEqual(depth);
    expect(parseStored("segmentation", { segLevel: "high", format: 5 }, { mesh: { file: "mesh.glb" } }).options).toEqual({
      segLevel: "high",
      format: 5,
    });
  });

  it("refuses rows that do not fit the spec instead of handing them to a generator", () => {
    expect(() => parseStored("image-to-3d", { ...submitted, resolution: "4096" }, image)).toThrow(/resolution/);
    expect(() => parseStored("image-to-3d", { ...submitted, pbr: 1 }, image)).toThrow(/pbr/);
    expect(() => parseStored("depth", { modelType: "pro" }, { image: { file: "i.png" } })).toThrow(/heightRelief/);
    expect(() =>
      parseStored("split", { model: "character", part: "a", joint: "ball", merge: true, level: "medium", format: 1 }, {}),
    ).toThrow(/mesh/);
    expect(() => parseStored("image-to-3d", submitted, { images: [{ key: "top", source: { file: "x" } }] })).toThrow(/inputs/);
  });
});
