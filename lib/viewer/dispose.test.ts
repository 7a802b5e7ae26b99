import { BoxGeometry, Group, type Material, Mesh, MeshBasicMaterial, MeshStandardMaterial, Texture } from "three";
import { describe, expect, it, vi } from "vitest";
import { collectResources, disposeObject, disposeResources, materialTextures } from "./dispose";

function counted<T extends { addEventListener: (t: "dispose", f: () => void) => void }>(x: T, log: string[], name: string): T {
  x.addEventListener("dispose", () => log.push(name));
  return x;
}

describe("disposeObject", () => {
  it("disposes each geometry, material and texture once, and detaches the root", () => {
    const log: string[] = [];
    const scene = new Group();
    const root = new Group();
    scene.add(root);
    const geometry = counted(new BoxGeometry(), log, "geometry");
    const map = counted(new Texture(), log, "map");
    const normalMap = counted(new Texture(), log, "normalMap");
    const shared = counted(new MeshStandardMaterial({ map, normalMap }), log, "shared");
    const other = counted(new MeshBasicMaterial({ map }), log, "other");
    root.add(new Mesh(geometry, shared));
    const child = new Group();
    child.add(new Mesh(geometry, [shared, other]));
    root.add(child);

    disposeObject(root, () => undefined);
    expect(log.sort()).toEqual(["geometry", "map", "normalMap", "other", "shared"]);
    expect(root.parent).toBeNull();
  });

  it("revokes blob URLs that texture images were loaded from", () => {
    const revoke = vi.fn();
    const blobTexture = new Texture({ src: "blob:http://x/1" } as unknown as HTMLImageElement);
    const dataTexture = new Texture({ src: "data:image/png;base64,AA==" } as unknown as HTMLImageElement);
    const root = new Mesh(new BoxGeometry(), new MeshStandardMaterial({ map: blobTexture, emissiveMap: dataTexture }));
    disposeObject(root, revoke);
    expect(revoke).toHaveBeenCalledTimes(1);
    expect(revoke).toHaveBeenCalledWith("blob:http://x/1");
  });
});

describe("collectResources", () => {
  it("adds to a snapshot, so materials swapped out later are still freed", () => {
    const original = new MeshStandardMaterial({ map: new Texture() });
    const mesh = new Mesh<BoxGeometry, Material>(new BoxGeometry(), original);
    const snapshot = collectResources(mesh);
    mesh.material = new MeshBasicMaterial(); // e.g. clay mode still on at unmount
    const all = collectResources(mesh, snapshot);
    expect(all.materials.size).toBe(2);
    expect(all.textures.size).toBe(1);
    const freed: string[] = [];
    original.addEventListener("dispose", () => freed.push("original"));
    disposeResources(all, () => undefined);
    expect(freed).toEqual(["original"]);
  });
});

describe("materialTextures", () => {
  it("finds textures under any property", () => {
    const a = new Texture(),
      b = new Texture();
    expect(materialTextures(new MeshStandardMaterial({ map: a, roughnessMap: b }))).toEqual(expect.arrayContaining([a, b]));
    expect(materialTextures(new MeshStandardMaterial())).toEqual([]);
  });
});
