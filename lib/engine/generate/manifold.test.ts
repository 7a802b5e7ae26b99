import { describe, expect, it } from "vitest";
import { Arena, getManifold } from "./manifold";

describe("getManifold", () => {
  it("instantiates the WASM module once, set up to build solids", async () => {
    const first = getManifold();
    expect(getManifold()).toBe(first);
    const wasm = await first;
    const cube = wasm.Manifold.cube([1, 2, 3]);
    expect(cube.volume()).toBeCloseTo(6, 6);
    cube.delete();
  });
});

describe("Arena", () => {
  it("returns what it keeps and deletes everything once on free, even when a delete throws", () => {
    const arena = new Arena();
    const deleted: string[] = [];
    const item = (name: string, fails = false) => ({
      delete() {
        deleted.push(name);
        if (fails) throw new Error(`${name} already deleted`);
      },
    });
    const a = item("a");
    expect(arena.keep(a)).toBe(a);
    arena.keep(item("b", true));
    arena.keep(item("c"));
    arena.free();
    expect(deleted).toEqual(["a", "b", "c"]);
    arena.free();
    expect(deleted).toEqual(["a", "b", "c"]);
  });

  it("frees real WASM objects", async () => {
    const wasm = await getManifold();
    const arena = new Arena();
    const sphere = arena.keep(wasm.Manifold.sphere(1, 16));
    expect(sphere.volume()).toBeGreaterThan(3);
    arena.free();
    expect(() => sphere.volume()).toThrow();
  });
});
