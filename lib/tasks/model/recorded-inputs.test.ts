import { describe, expect, it } from "vitest";
import { inputEntries, sourceImageUpload } from "./recorded-inputs";

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

describe("inputEntries, what each stored input becomes", () => {
  it("places views by the default bits (all four) when none were recorded", () => {
    const entries = inputEntries("image-to-3d", { multi_images: ["f", "b", "l", "r"] });
    expect(entries).toEqual([
      { label: "front", role: "image", ref: { upload: "f" } },
      { label: "back", role: "image", ref: { upload: "b" } },
      { label: "left", role: "image", ref: { upload: "l" } },
      { label: "right", role: "image", ref: { upload: "r" } },
    ]);
    expect(inputEntries("image-to-3d", { multi_images: ["f", "r"], multi_images_bit: "" }).map((e) => e.label)).toEqual(["front", "back"]);
  });

  it("reads a stored ref as an upload first, then a task, then a URL, skipping empty ones", () => {
    expect(inputEntries("depth", { image: { upload: "u", task: "t", url: "https://h.test/a.png" } })[0]?.ref).toEqual({ upload: "u" });
    expect(inputEntries("depth", { image: { upload: "", task: "t", url: "https://h.test/a.png" } })[0]?.ref).toEqual({ task: "t" });
    expect(inputEntries("depth", { image: { upload: "", task: "", url: "https://h.test/a.png" } })[0]?.ref).toEqual({
      url: "https://h.test/a.png",
    });
    expect(inputEntries("depth", { image: { url: "" } })).toEqual([]);
    expect(inputEntries("depth", { image: null, mesh: "m" })).toEqual([]);
    expect(inputEntries("depth", { image: { upload: 7 } })).toEqual([]);
  });

  it("keeps the strings of a list and drops the rest", () => {
    expect(inputEntries("image-to-3d", { images: [1, "a", null, "b"] }).map((e) => e.ref)).toEqual([{ upload: "a" }, { upload: "b" }]);
    expect(inputEntries("image-to-3d", { multi_images: "f" })).toEqual([]);
  });

  it("lists images, views, the image ref and then the mesh", () => {
    expect(
      inputEntries("segmentation", { mesh: { upload: "m" }, image: { task: "t" }, multi_images: ["f"], images: ["i"] }).map((e) => [
        e.label,
        e.role,
      ]),
    ).toEqual([
      ["image", "image"],
      ["front", "image"],
      ["image", "image"],
      ["mesh", "mesh"],
    ]);
  });
});

describe("sourceImageUpload, which image a task came from", () => {
  it("is nothing without a front view or an uploaded image", () => {
    expect(sourceImageUpload({ multi_images: ["b"], multi_images_bit: "0100" })).toBeUndefined();
    expect(sourceImageUpload({ image: { task: "t" } })).toBeUndefined();
    expect(sourceImageUpload({ mesh: { upload: "m" } })).toBeUndefined();
    expect(sourceImageUpload({})).toBeUndefined();
  });

  it("takes an uploaded image ref, and the first image of a list", () => {
    expect(sourceImageUpload({ image: { upload: "u" } })).toBe("u");
    expect(sourceImageUpload({ images: ["a", "b"] })).toBe("a");
    expect(sourceImageUpload({ multi_images: ["f", "b"], multi_images_bit: "1100", mesh: { upload: "m" } })).toBe("f");
  });
});
