import { describe, expect, it } from "vitest";
import { ERRORS } from "@/lib/x3d/errors";
import { LIMITS } from "@/lib/x3d/options";
import { formInput, MB, refusal, upload } from "./form-input.test-helpers";
import { validateMeshInput } from "./mesh-input";

describe("validateMeshInput (split and segmentation: mesh or mesh_url)", () => {
  it("takes one GLB, binary STL, ASCII STL or OBJ file, recognised by its first bytes whatever its name", () => {
    for (const [kind, name] of [
      ["glb", "robot.glb"],
      ["binaryStl", "part.stl"],
      ["asciiStl", "cube.STL"],
      ["obj", "scan.obj"],
      ["glb", "no-extension"],
    ] as const) {
      const mesh = upload("mesh", name, kind);
      expect(validateMeshInput(formInput({}, [mesh])), name).toEqual({ file: mesh });
    }
  });

  it("takes an http or https URL to a .glb, .stl or .obj, or one whose path has no extension", () => {
    for (const url of [
      "https://example.com/robot.glb",
      "http://example.com/a/part.STL?v=2",
      "https://example.com/scan.obj#top",
      "https://example.com/models/42",
    ]) {
      expect(validateMeshInput(formInput({ mesh_url: url })), url).toEqual({ url });
    }
    expect(validateMeshInput(formInput({ mesh_url: "  https://example.com/robot.glb \n" }))).toEqual({
      url: "https://example.com/robot.glb",
    });
  });

  it("refuses a request with neither a file nor a URL (10030003); a blank URL is none", () => {
    const expected = { code: 10030003, detail: undefined };
    expect(refusal(() => validateMeshInput(formInput({})))).toEqual(expected);
    expect(refusal(() => validateMeshInput(formInput({ mesh_url: "   " })))).toEqual(expected);
    expect(ERRORS[10030003].msg).toBe("mesh or mesh_url required");
  });

  it("refuses a file and a URL together (10030004), even when both are fine", () => {
    const form = formInput({ mesh_url: "https://example.com/robot.glb" }, [upload("mesh", "robot.glb", "glb")]);
    expect(refusal(() => validateMeshInput(form))).toEqual({ code: 10030004, detail: undefined });
  });

  it("takes the URL when the mesh field came without files", () => {
    const form = formInput({ mesh_url: "https://example.com/robot.glb" });
    form.files.set("mesh", []);
    expect(validateMeshInput(form)).toEqual({ url: "https://example.com/robot.glb" });
  });

  it("refuses two files (10030012), naming the field and the count", () => {
    const form = formInput({}, [upload("mesh", "a.glb", "glb"), upload("mesh", "b.glb", "glb")]);
    expect(refusal(() => validateMeshInput(form))).toEqual({ code: 10030012, detail: "mesh takes one file, got 2" });
  });

  it("refuses an empty file (10030008), naming it", () => {
    const form = formInput({}, [upload("mesh", "empty.glb", "glb", 0)]);
    expect(refusal(() => validateMeshInput(form))).toEqual({ code: 10030008, detail: 'mesh "empty.glb" is empty' });
  });

  it("takes a file of exactly 200 MB and refuses one byte more (10030006), with both sizes", () => {
    expect(LIMITS.meshBytes).toBe(200 * MB);
    const atLimit = upload("mesh", "big.glb", "glb", 200 * MB);
    expect(validateMeshInput(formInput({}, [atLimit]))).toEqual({ file: atLimit });
    const over = formInput({}, [upload("mesh", "big.glb", "glb", 200 * MB + 1)]);
    expect(refusal(() => validateMeshInput(over))).toEqual({ code: 10030006, detail: "mesh is 200.0 MB, at most 200 MB" });
    const far = formInput({}, [upload("mesh", "big.glb", "glb", 350 * MB)]);
    expect(refusal(() => validateMeshInput(far))).toEqual({ code: 10030006, detail: "mesh is 350 MB, at most 200 MB" });
  });

  it("refuses a file that is no mesh whatever its name says (10030005)", () => {
    for (const [kind, name] of [
      ["png", "robot.glb"],
      ["fbx", "robot.fbx"],
      ["gif", "robot.obj"],
    ] as const) {
      const form = formInput({}, [upload("mesh", name, kind)]);
      expect(
        refusal(() => validateMeshInput(form)),
        name,
      ).toEqual({ code: 10030005, detail: `mesh "${name}" is not a GLB, STL or OBJ file` });
    }
    // A binary STL whose size does not match its triangle count is not one.
    const cut = formInput({}, [upload("mesh", "cut.stl", "binaryStl", 84 + 50 * 11)]);
    expect(refusal(() => validateMeshInput(cut)).code).toBe(10030005);
  });

  it("refuses a URL that is not http or https (10030007), quoting it", () => {
    for (const url of ["ftp://example.com/robot.glb", "example.com/robot.glb", "https://example.com/a\u0000.glb"]) {
      expect(
        refusal(() => validateMeshInput(formInput({ mesh_url: url }))),
        url,
      ).toEqual({
        code: 10030007,
        detail: `mesh_url must be an http or https URL, got "${url}"`,
      });
    }
  });

  it("refuses a URL to another kind of file (10030005), naming the formats taken and the extension", () => {
    for (const [url, ext] of [
      ["https://example.com/robot.fbx", "fbx"],
      ["https://example.com/robot.PNG", "png"],
    ] as const) {
      expect(
        refusal(() => validateMeshInput(formInput({ mesh_url: url }))),
        url,
      ).toEqual({
        code: 10030005,
        detail: `mesh_url must point to a .glb, .stl or .obj file, got .${ext}`,
      });
    }
  });
});
