import { describe, expect, it } from "vitest";
import { callbackUrl, files, text, urlExtension } from "./form";
import { formInput, refusal, upload } from "./form-input.test-helpers";

describe("text", () => {
  it("is the first value of a field, trimmed", () => {
    expect(text(formInput({ model: [" x3dv2.0\n", "x3dv1.5"] }), "model")).toBe("x3dv2.0");
  });

  it("is undefined for a field absent, sent without a value, empty or blank (clients send empty defaults)", () => {
    const form = formInput({ empty: "", blank: " \t\n", none: [] });
    for (const name of ["absent", "empty", "blank", "none"]) expect(text(form, name), name).toBeUndefined();
  });
});

describe("files", () => {
  it("is the uploads of a field in the order sent, or none", () => {
    const [a, b] = [upload("multi_images", "a.png", "png"), upload("multi_images", "b.png", "png")];
    const form = formInput({}, [a, b]);
    expect(files(form, "multi_images")).toEqual([a, b]);
    expect(files(form, "images")).toEqual([]);
  });
});

describe("callbackUrl", () => {
  it("is undefined when absent or blank, and the URL trimmed otherwise", () => {
    expect(callbackUrl(formInput({}))).toBeUndefined();
    expect(callbackUrl(formInput({ callback_url: "  " }))).toBeUndefined();
    expect(callbackUrl(formInput({ callback_url: " http://example.com/hook?task=1 " }))).toBe("http://example.com/hook?task=1");
  });

  it("refuses anything but an http(s) URL (10030001), quoting it", () => {
    for (const url of ["ftp://example.com/hook", "/hook", "https://example.com/hook\u0000", "javascript:alert(1)"]) {
      expect(
        refusal(() => callbackUrl(formInput({ callback_url: url }))),
        url,
      ).toEqual({
        code: 10030001,
        detail: `callback_url must be an http or https URL, got "${url}"`,
      });
    }
  });
});

describe("urlExtension", () => {
  it("is the extension of the URL's path in lower case, without the query or fragment", () => {
    expect(urlExtension("https://example.com/a/Robot.GLB?v=1.2#x.y")).toBe("glb");
    expect(urlExtension("https://example.com/archive.tar.gz")).toBe("gz");
  });

  it("is empty when the path has none or the text is no URL", () => {
    expect(urlExtension("https://example.com/models/42")).toBe("");
    expect(urlExtension("https://example.com/")).toBe("");
    expect(urlExtension("not a url.glb")).toBe("");
  });
});
