import { describe, expect, it } from "vitest";
import { BoxGeometry, DataTexture, Group, Mesh, MeshStandardMaterial } from "three";
import { textureSizes } from "./texture-sizes";

describe("textureSizes", () => {
  it("lists each distinct size once, largest first, across maps and meshes", () => {
    const base = new DataTexture(new Uint8Array(64 * 32 * 4), 64, 32);
    const normal = new DataTexture(new Uint8Array(16 * 16 * 4), 16, 16);
    const root = new Group();
    root.add(new Mesh(new BoxGeometry(), new MeshStandardMaterial({ map: base, normalMap: normal })));
    root.add(new Mesh(new BoxGeometry(), new MeshStandardMaterial({ map: base })));
    expect(textureSizes(root)).toEqual(["64×32", "16×16"]);
  });

  it("is empty for an untextured model", () => {
    const root = new Group();
    root.add(new Mesh(new BoxGeometry(), new MeshStandardMaterial()));
    expect(textureSizes(root)).toEqual([]);
  });
});
