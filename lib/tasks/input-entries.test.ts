import { describe, expect, it } from "vitest";
import { inputEntries, sourceImageUpload } from "./input-entries";

describe("inputEntries", () => {
  it("labels views by their side from the bit string, in the order sent", () => {
    const entries = inputEntries("image-to-3d", { multi_images: ["f", "l"], multi_images_bit: "1010" });
    expect(entries.map((e) => [e.label, e.ref])).toEqual([
      ["front", { upload: "f" }],
      ["left", { upload: "l" }],
    ]);
  });

  it("gives a texture task its image and its mesh, whatever the mesh came from", () => {
    expect(inputEntries("texture", { images: ["img"], mesh: { task: "t1" } })).toEqual([
      { label: "image", role: "image", ref: { upload: "img" } },
      { label: "mesh to texture", role: "mesh", ref: { task: "t1" } },
    ]);
    expect(inputEntries("split", { mesh: { url: "https://example.com/a.glb" } })).toEqual([
      { label: "mesh", role: "mesh", ref: { url: "https://example.com/a.glb" } },
    ]);
    expect(inputEntries("depth", { image: { task: "t2" } })).toEqual([{ label: "image", role: "image", ref: { task: "t2" } }]);
  });

  it("ignores what it cannot read", () => {
    expect(inputEntries("split", { mesh: 3, images: "x", multi_images: [1] })).toEqual([]);
  });
});

describe("sourceImageUpload", () => {
  it("is the single image, or the front view", () => {
    expect(sourceImageUpload({ images: ["a"] })).toBe("a");
    expect(sourceImageUpload({ multi_images: ["f", "b"], multi_images_bit: "1100" })).toBe("f");
    expect(sourceImageUpload({ image: { url: "https://example.com/a.png" } })).toBeUndefined();
  });
});
