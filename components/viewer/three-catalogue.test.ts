import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { VIEWER_THREE_CLASSES } from "./three-catalogue";

// The files whose JSX is rendered inside ThreeCanvas (by react-three-fiber, not react-dom).
const SCENES = ["model-scene.tsx", "measure-scene.tsx"];

/**
 * The lowercase JSX element names in a file's source: three.js elements in a scene file. A type's
 * arguments (useRef<number>, ComponentRef<typeof X>) follow a name, where an element does not.
 */
function intrinsicElements(source: string): string[] {
  return [...new Set([...source.matchAll(/(?<![\w$.])<([a-z][A-Za-z0-9]*)[\s/>]/g)].map((m) => m[1] ?? ""))];
}

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

describe("the three.js classes ThreeCanvas registers", () => {
  it("include every element the scenes draw", () => {
    for (const file of SCENES) {
      const source = fs.readFileSync(path.join(import.meta.dirname, file), "utf8");
      const elements = intrinsicElements(source).filter((name) => name !== "primitive");
      expect(elements.length, file).toBeGreaterThan(0);
      const missing = elements.filter((name) => !(pascal(name) in VIEWER_THREE_CLASSES));
      expect(missing, `${file} draws elements ThreeCanvas does not register`).toEqual([]);
    }
  });

  it("are the classes of those names (what R3F constructs for <name>)", () => {
    for (const [name, constructor] of Object.entries(VIEWER_THREE_CLASSES)) {
      expect(typeof constructor, name).toBe("function");
      expect(constructor.name, name).toBe(name);
    }
  });

  it("are no more than the scenes draw (each one registered keeps its class in the page's JavaScript)", () => {
    const drawn = new Set(
      SCENES.flatMap((file) => intrinsicElements(fs.readFileSync(path.join(import.meta.dirname, file), "utf8")).map(pascal)),
    );
    expect(Object.keys(VIEWER_THREE_CLASSES).filter((name) => !drawn.has(name))).toEqual([]);
  });

  it("finds the elements of JSX source", () => {
    expect(
      intrinsicElements(
        `<group ref={g}>\n<gridHelper args={[1]} />\n<primitive object={o} /><Foo /><mesh>, useRef<number>(0), X<typeof y>`,
      ),
    ).toEqual(["group", "gridHelper", "primitive", "mesh"]);
  });
});
