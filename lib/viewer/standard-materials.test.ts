import {
  BoxGeometry,
  Color,
  DoubleSide,
  Group,
  Mesh,
  MeshLambertMaterial,
  MeshPhongMaterial,
  MeshPhysicalMaterial,
  MeshStandardMaterial,
  Texture,
} from "three";
import { describe, expect, it } from "vitest";
import { convertToStandardMaterials, roughnessFromShininess } from "./standard-materials";

describe("convertToStandardMaterials", () => {
  it("turns Phong and Lambert into standard materials, keeping colour, map and flags", () => {
    const map = new Texture();
    const phong = new MeshPhongMaterial({
      color: 0x336699,
      map,
      transparent: true,
      opacity: 0.5,
      side: DoubleSide,
      vertexColors: true,
      shininess: 100,
    });
    const lambert = new MeshLambertMaterial({ color: 0xff0000 });
    const physical = new MeshPhysicalMaterial();
    let oldFreed = 0;
    let mapFreed = false;
    phong.addEventListener("dispose", () => oldFreed++);
    map.addEventListener("dispose", () => (mapFreed = true));
    const root = new Group();
    const a = new Mesh(new BoxGeometry(), phong);
    const b = new Mesh(new BoxGeometry(), [phong, lambert, physical]);
    root.add(a, b);

    expect(convertToStandardMaterials(root)).toBe(2);
    const s = a.material as unknown as MeshStandardMaterial;
    expect(s.isMeshStandardMaterial).toBe(true);
    expect(s.color.equals(new Color(0x336699))).toBe(true);
    expect(s.map).toBe(map);
    expect([s.transparent, s.opacity, s.side, s.vertexColors]).toEqual([true, 0.5, DoubleSide, true]);
    expect(s.metalness).toBe(0);
    const [s2, l2, p2] = b.material as unknown as MeshStandardMaterial[];
    expect(s2).toBe(s); // a shared material stays shared
    expect(l2!.roughness).toBe(1);
    expect(p2).toBe(physical);
    expect(oldFreed).toBe(1);
    expect(mapFreed).toBe(false); // the texture moved to the new material
  });

  it("maps shininess to a roughness that is never mirror-like", () => {
    expect(roughnessFromShininess(0)).toBe(1);
    expect(roughnessFromShininess(30)).toBe(0.4);
    expect(roughnessFromShininess(6)).toBeCloseTo(0.5);
    expect(roughnessFromShininess(-5)).toBe(1);
  });
});
