import { describe, expect, it } from "vitest";
import { mtllibNames, normalizeAssetPath, pickObjAndMtl, ZipAssetResolver } from "./zip-assets";

describe("normalizeAssetPath", () => {
  it("normalises separators, dots and encoding", () => {
    expect(normalizeAssetPath("./a\\b/../c%20d.png")).toBe("a/c d.png");
    expect(normalizeAssetPath("/x//y.png")).toBe("x/y.png");
    expect(normalizeAssetPath("100%.png")).toBe("100%.png");
  });
});

describe("ZipAssetResolver", () => {
  const names = [
    "model/",
    "model/model.obj",
    "model/model.mtl",
    "model/textures/Wood.PNG",
    "other/wood.png",
    "model/tex_0.png",
    "__MACOSX/model/._tex_0.png",
  ];
  const r = new ZipAssetResolver(names, "model/");

  it("resolves relative to the model's folder, then from the root, in any case", () => {
    expect(r.resolve("tex_0.png")).toBe("model/tex_0.png");
    expect(r.resolve("textures\\wood.png")).toBe("model/textures/Wood.PNG");
    expect(r.resolve("other/wood.png")).toBe("other/wood.png");
  });

  it("falls back to a unique base name, never to an ambiguous one", () => {
    expect(r.resolve("C:\\Users\\me\\tex_0.png")).toBe("model/tex_0.png");
    expect(r.resolve("D:/elsewhere/wood.png")).toBeUndefined();
    expect(r.resolve("missing.png")).toBeUndefined();
    expect(r.resolve("")).toBeUndefined();
  });
});

describe("pickObjAndMtl", () => {
  it("takes the shallowest OBJ and the MTL it names", () => {
    const texts: Record<string, string> = { "a/model.obj": "mtllib my materials.mtl\nv 0 0 0\n", "deep/er/x.obj": "" };
    const names = ["deep/er/x.obj", "a/model.obj", "a/other.mtl", "a/my materials.mtl"];
    expect(pickObjAndMtl(names, (n) => texts[n] ?? "")).toEqual({ obj: "a/model.obj", mtl: "a/my materials.mtl" });
  });

  it("falls back to any MTL, or none, and refuses an archive without OBJ", () => {
    expect(pickObjAndMtl(["m.obj", "x.mtl"], () => "")).toEqual({ obj: "m.obj", mtl: "x.mtl" });
    expect(pickObjAndMtl(["m.obj"], () => "mtllib gone.mtl")).toEqual({ obj: "m.obj" });
    expect(() => pickObjAndMtl(["a.png"], () => "")).toThrow(/no \.obj/);
  });

  it("reads mtllib lines", () => {
    expect(mtllibNames("# x\nmtllib model.mtl\n  mtllib  b c.mtl  \nusemtl m")).toEqual(["model.mtl", "b c.mtl"]);
  });
});
