import { describe, expect, it } from "vitest";
import { HEAD_BYTES, sniffImage, sniffMesh } from "./sniff";

const bytes = (...b: number[]) => Uint8Array.from(b);
const text = (s: string) => new TextEncoder().encode(s);
const head = (buf: Uint8Array) => buf.subarray(0, HEAD_BYTES);

function binaryStl(triangles: number, header = "binary stl"): Uint8Array {
  const buf = new Uint8Array(84 + 50 * triangles);
  buf.set(text(header).subarray(0, 80));
  new DataView(buf.buffer).setUint32(80, triangles, true);
  for (let i = 0; i < triangles; i++) {
    // A normal of (0, 0, 1): float bytes with NULs, as in real files.
    new DataView(buf.buffer).setFloat32(84 + 50 * i + 8, 1, true);
  }
  return buf;
}

describe("sniffImage", () => {
  it("recognises PNG, JPEG and WEBP", () => {
    expect(sniffImage(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13))).toBe("png");
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 16))).toBe("jpeg");
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xdb))).toBe("jpeg");
    expect(sniffImage(text("RIFF\x24\x00\x00\x00WEBPVP8 "))).toBe("webp");
  });

  it("rejects other and truncated data", () => {
    expect(sniffImage(new Uint8Array())).toBeNull();
    expect(sniffImage(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull(); // cut PNG signature
    expect(sniffImage(bytes(0xff, 0xd8))).toBeNull();
    expect(sniffImage(text("RIFF\x24\x00\x00\x00WAVEfmt "))).toBeNull(); // a WAV file
    expect(sniffImage(text("GIF89a"))).toBeNull();
    expect(sniffImage(text("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImage(text("glTF"))).toBeNull();
  });
});

describe("sniffMesh", () => {
  it("recognises GLB", () => {
    const glb = new Uint8Array(20);
    glb.set(text("glTF"));
    glb[4] = 2;
    expect(sniffMesh(glb, glb.length)).toBe("glb");
    expect(sniffMesh(glb)).toBe("glb");
  });

  it("recognises binary STL by size, even with a header starting with 'solid'", () => {
    const stl = binaryStl(12);
    expect(sniffMesh(head(stl), stl.length)).toBe("stl");
    const solid = binaryStl(3, "solid exported by SomeCAD");
    expect(sniffMesh(head(solid), solid.length)).toBe("stl");
    const empty = binaryStl(0);
    expect(sniffMesh(empty, empty.length)).toBe("stl");
  });

  it("does not call binary data STL when the size doesn't match the count", () => {
    const stl = binaryStl(12);
    expect(sniffMesh(head(stl), stl.length + 1)).toBeNull();
    expect(sniffMesh(head(stl))).toBeNull(); // size unknown
    expect(sniffMesh(head(stl).subarray(0, 64), stl.length)).toBeNull(); // head too short
  });

  it("recognises ASCII STL", () => {
    const stl = text("solid cube\n  facet normal 0 0 1\n    outer loop\n      vertex 0 0 0\n");
    expect(sniffMesh(stl, stl.length)).toBe("stl");
    expect(sniffMesh(text("\r\n  \tSOLID x\r\nfacet normal 0 0 1"))).toBe("stl");
    // "solid" without any facet in the head is not enough.
    expect(sniffMesh(text("solid cube\nendsolid cube\n"))).toBeNull();
    expect(sniffMesh(text("the word solid and facet"))).toBeNull();
  });

  it("recognises OBJ", () => {
    const obj = text(
      "# Blender 4.0\nmtllib cube.mtl\no Cube\nv 1 1 -1\nv 1 -1 -1\nvn 0 1 0\nvt 0.5 0.5\ns 0\nusemtl Material\nf 1/1/1 2/1/1 3/1/1\n",
    );
    expect(sniffMesh(obj, obj.length)).toBe("obj");
    expect(sniffMesh(text("\ufeffv 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nf 1 2 3\r\n"))).toBe("obj");
    expect(sniffMesh(text("g group\n\n   v 0 0 0\n"))).toBe("obj");
  });

  it("ignores a cut last line in a truncated OBJ head", () => {
    const long = text("v 0 0 0\n".repeat(200));
    const cut = text("v 0 0 0\nv 1 1 1\nvertexcolo");
    expect(sniffMesh(head(long), long.length)).toBe("obj");
    expect(sniffMesh(cut, cut.length + 100)).toBe("obj");
    expect(sniffMesh(cut, cut.length)).toBeNull(); // complete file: last line counts
  });

  it("rejects text that is not OBJ", () => {
    expect(sniffMesh(text("# just a comment\n# another\n"))).toBeNull();
    expect(sniffMesh(text("<html><body>not found</body></html>"))).toBeNull();
    expect(sniffMesh(text('{"asset":{"version":"2.0"}}'))).toBeNull(); // .gltf JSON
    expect(sniffMesh(text("v 0 0 0\nhello world\n"))).toBeNull();
    expect(sniffMesh(text(""))).toBeNull();
  });

  it("rejects binary and image data", () => {
    expect(sniffMesh(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBeNull();
    expect(sniffMesh(bytes(0x76, 0x20, 0x00, 0x01))).toBeNull(); // "v " then binary
    expect(sniffMesh(text("PK\x03\x04"))).toBeNull(); // zip (3MF, USDZ)
  });
});
