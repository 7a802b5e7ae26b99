import { describe, expect, it } from "vitest";
import { inputPreviewUrl } from "./input-preview";

describe("inputPreviewUrl", () => {
  it("is the first uploaded image, or the front view, numbered as the input routes number them", () => {
    expect(inputPreviewUrl("t1", "image-to-3d", { images: ["a"] })).toBe("/api/files/t1/inputs/0");
    expect(inputPreviewUrl("t1", "image-to-3d", { multi_images: ["f", "l"], multi_images_bit: "1010" })).toBe("/api/files/t1/inputs/0");
  });

  it("is an earlier result's cover when the mesh came from one, and skips URLs and uploaded models", () => {
    expect(inputPreviewUrl("t2", "split", { mesh: { task: "earlier" } })).toBe("/api/files/t2/inputs/0");
    expect(inputPreviewUrl("t3", "texture", { image: { url: "https://example.com/a.png" }, mesh: { task: "m" } })).toBe(
      "/api/files/t3/inputs/1",
    );
    expect(inputPreviewUrl("t4", "split", { mesh: { upload: "u" } })).toBeUndefined();
    expect(inputPreviewUrl("t5", "depth", { image: { url: "https://example.com/a.png" } })).toBeUndefined();
  });

  it("encodes the task id", () => {
    expect(inputPreviewUrl("a/b", "depth", { image: { upload: "u" } })).toBe("/api/files/a%2Fb/inputs/0");
  });
});
