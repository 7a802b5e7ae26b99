import { describe, expect, it } from "vitest";
import { galleryHref } from "./gallery-href";

describe("galleryHref", () => {
  it("is the bare path without filters, on the first page", () => {
    expect(galleryHref("/", {})).toBe("/");
    expect(galleryHref("/tasks", { page: 1 })).toBe("/tasks");
  });

  it("puts kind, state and a later page in the address, in that order", () => {
    expect(galleryHref("/", { kind: "image-to-3d" })).toBe("/?kind=image-to-3d");
    expect(galleryHref("/tasks", { kind: "split", state: "success", page: 3 })).toBe("/tasks?kind=split&state=success&page=3");
    expect(galleryHref("/", { state: "failed", page: 2 })).toBe("/?state=failed&page=2");
  });
});
