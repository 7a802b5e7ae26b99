import { BoxGeometry, Group, Mesh, MeshBasicMaterial, MeshStandardMaterial } from "three";
import { describe, expect, it } from "vitest";
import { DisplayModes } from "./display-modes";

function model() {
  const root = new Group();
  const red = new MeshStandardMaterial({ color: 0xff0000 });
  const pair = [new MeshBasicMaterial(), new MeshBasicMaterial()];
  const a = new Mesh(new BoxGeometry(), red);
  const b = new Mesh(new BoxGeometry(), pair);
  root.add(a, b);
  return { root, a, b, red, pair };
}

describe("DisplayModes", () => {
  it("swaps in one clay material and restores the originals", () => {
    const { root, a, b, red, pair } = model();
    const modes = new DisplayModes(root);
    modes.apply({ clay: true, wireframe: false });
    expect(a.material).toBe(b.material);
    expect((a.material as MeshStandardMaterial).name).toBe("clay");
    modes.apply({ clay: true, wireframe: false }); // again: originals are not overwritten by clay
    modes.apply({ clay: false, wireframe: false });
    expect(a.material).toBe(red);
    expect(b.material).toBe(pair);
  });

  it("sets wireframe on what shows and on what comes back", () => {
    const { root, a, red, pair } = model();
    const modes = new DisplayModes(root);
    modes.apply({ clay: false, wireframe: true });
    expect(red.wireframe).toBe(true);
    expect(pair.every((m) => m.wireframe)).toBe(true);
    modes.apply({ clay: true, wireframe: true });
    expect((a.material as MeshStandardMaterial).wireframe).toBe(true);
    modes.apply({ clay: true, wireframe: false });
    expect((a.material as MeshStandardMaterial).wireframe).toBe(false);
    modes.apply({ clay: false, wireframe: false });
    expect(red.wireframe).toBe(false);
  });

  it("restores the originals and frees the clay material on dispose", () => {
    const { root, a, red } = model();
    const modes = new DisplayModes(root);
    modes.apply({ clay: true, wireframe: false });
    const clay = a.material as MeshStandardMaterial;
    let freed = false;
    clay.addEventListener("dispose", () => (freed = true));
    modes.dispose();
    expect(a.material).toBe(red);
    expect(freed).toBe(true);
  });
});
