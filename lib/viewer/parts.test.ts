import { BoxGeometry, Group, Mesh, MeshStandardMaterial, Vector3 } from "three";
import { describe, expect, it } from "vitest";
import { DisplayModes } from "./display-modes";
import { findParts, partColour, PartLayout } from "./parts";

/** A loaded split as the viewer holds it: model > upright > scene > [left at x = -2, right at x = +2]. */
function split() {
  const scene = new Group();
  const material = new MeshStandardMaterial({ color: 0xff0000 });
  const left = new Mesh(new BoxGeometry(), material);
  left.name = "left_arm";
  left.position.set(-2, 0, 0);
  const right = new Mesh(new BoxGeometry(), material);
  right.name = "right_arm";
  right.position.set(2, 0, 0);
  scene.add(left, right, new Group()); // an empty node is no part
  const upright = new Group().add(scene);
  const root = new Group().add(upright);
  return { root, left, right, material };
}

describe("findParts", () => {
  it("names the mesh-holding nodes below the wrapping single children", () => {
    const { root, left, right } = split();
    expect(findParts(root)).toEqual([
      { name: "left_arm", object: left },
      { name: "right_arm", object: right },
    ]);
  });

  it("finds none in a model of one piece, and names unnamed parts by position", () => {
    const one = new Group().add(new Group().add(new Mesh(new BoxGeometry())));
    expect(findParts(one)).toEqual([]);
    const unnamed = new Group().add(new Mesh(new BoxGeometry()), new Mesh(new BoxGeometry()));
    expect(findParts(unnamed).map((p) => p.name)).toEqual(["part 1", "part 2"]);
    const twins = new Group().add(new Mesh(new BoxGeometry()), new Mesh(new BoxGeometry()));
    for (const m of twins.children) m.name = "leg";
    expect(findParts(twins).map((p) => p.name)).toEqual(["leg", "leg (2)"]);
  });
});

describe("PartLayout", () => {
  it("hides parts by name and moves each away from the centre by its distance times the amount", () => {
    const { root, left, right } = split();
    root.position.set(10, 5, 0); // where the viewer centred it: directions do not depend on it
    const layout = new PartLayout(root, findParts(root));
    layout.apply(new Set(["left_arm"]), 1);
    expect(left.visible).toBe(false);
    expect(right.visible).toBe(true);
    expect(left.position).toEqual(new Vector3(-4, 0, 0));
    expect(right.position).toEqual(new Vector3(4, 0, 0));
    layout.apply(new Set(), 0.5);
    expect(left.visible).toBe(true);
    expect(right.position).toEqual(new Vector3(3, 0, 0));
    layout.apply(new Set(), 0);
    expect(left.position).toEqual(new Vector3(-2, 0, 0));
  });

  it("moves along the parent's frame when the parent is rotated or scaled", () => {
    const { root, left } = split();
    const scene = left.parent;
    if (!scene) throw new Error("no parent");
    scene.rotation.z = Math.PI / 2; // the left part now lies at y = -2 in the world
    scene.scale.setScalar(2);
    const layout = new PartLayout(root, findParts(root));
    layout.apply(new Set(), 1);
    left.updateMatrixWorld(true);
    const world = left.getWorldPosition(new Vector3());
    expect(world.x).toBeCloseTo(0);
    expect(world.y).toBeCloseTo(-8); // twice its world distance of 4
  });
});

describe("part colours", () => {
  it("gives distinct colours and paints each part's meshes, then puts the originals back", () => {
    expect(new Set(Array.from({ length: 12 }, (_, i) => partColour(i))).size).toBe(12);
    const { root, left, right, material } = split();
    const parts = findParts(root);
    const modes = new DisplayModes(root);
    const colours = new Map(parts.map((p, i) => [p.object, partColour(i)]));
    modes.apply({ wireframe: false, clay: true, partColours: colours });
    const l = left.material as MeshStandardMaterial;
    const r = right.material as MeshStandardMaterial;
    expect(l).not.toBe(material);
    expect(l.color.getHexString()).not.toBe(r.color.getHexString());
    expect(l.color.getHexString()).not.toBe("b4b4b4"); // part colours win over clay
    modes.apply({ wireframe: false, clay: true, partColours: null });
    expect((left.material as MeshStandardMaterial).name).toBe("clay");
    modes.apply({ wireframe: false, clay: false, partColours: null });
    expect(left.material).toBe(material);
    expect(right.material).toBe(material);
  });
});
