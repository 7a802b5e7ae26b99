import { describe, expect, it } from "vitest";
import { fileNameOf, formatFromExtension, isImageFormat, isZUp, screenshotName } from "./formats";

describe("formatFromExtension", () => {
  it("reads the extension of names, URLs and bare extensions, any case", () => {
    expect(formatFromExtension("model.glb")).toBe("glb");
    expect(formatFromExtension("/api/files/abc/result.3MF?download=1#x")).toBe("3mf");
    expect(formatFromExtension("https://x.test/a.b/c.USDZ")).toBe("usdz");
    expect(formatFromExtension("GLB")).toBe("glb");
    expect(formatFromExtension(".exr")).toBe("exr");
    expect(formatFromExtension("textured.zip")).toBe("zip");
  });

  it("answers null for what the viewer cannot show", () => {
    expect(formatFromExtension("photo.jpeg")).toBeNull();
    expect(formatFromExtension("noextension")).toBeNull();
    expect(formatFromExtension("")).toBeNull();
    expect(formatFromExtension("/files/glb/")).toBeNull();
  });
});

describe("isImageFormat", () => {
  it("tells depth images from meshes", () => {
    expect(isImageFormat("png")).toBe(true);
    expect(isImageFormat("bmp")).toBe(true);
    expect(isImageFormat("exr")).toBe(true);
    expect(isImageFormat("stl")).toBe(false);
    expect(isImageFormat("glb")).toBe(false);
  });
});

describe("isZUp", () => {
  it("is true for the printing formats only", () => {
    expect(isZUp("stl")).toBe(true);
    expect(isZUp("3mf")).toBe(true);
    expect(isZUp("glb")).toBe(false);
    expect(isZUp("obj")).toBe(false);
  });
});

describe("file names", () => {
  it("takes the last segment, decoded, without query", () => {
    expect(fileNameOf("/a/b/my%20chair.glb?sig=1")).toBe("my chair.glb");
    expect(fileNameOf("C:\\x\\y.obj")).toBe("y.obj");
    expect(fileNameOf("/a/100%.glb")).toBe("100%.glb");
  });

  it("makes a safe screenshot name", () => {
    expect(screenshotName("/api/files/t1/my chair.glb?x")).toBe("my_chair.png");
    expect(screenshotName("result.tar.zip")).toBe("result.tar.png");
    expect(screenshotName("/")).toBe("model.png");
    expect(screenshotName(".hidden")).toBe("hidden.png");
  });
});
