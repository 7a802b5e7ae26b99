import { Color, DataTexture, MeshStandardMaterial, SRGBColorSpace, Texture } from "three";
import { describe, expect, it } from "vitest";
import { mapMaterial, uvCheckerTexture } from "./material-views";

const srgb = (c: Color) => c.getHexString(SRGBColorSpace);

describe("mapMaterial", () => {
  it("shows each map of a textured PBR material on its own, unlit and white-tinted", () => {
    const [base, normal, mr, ao] = [new Texture(), new Texture(), new Texture(), new Texture()];
    const m = new MeshStandardMaterial({ map: base, color: 0x808080, normalMap: normal, metalnessMap: mr, roughnessMap: mr, aoMap: ao });
    const b = mapMaterial(m, "base");
    expect(b.type).toBe("MeshBasicMaterial");
    expect(b.toneMapped).toBe(false);
    expect(b.map).toBe(base);
    expect(srgb(b.color)).toBe("808080"); // the base colour factor still tints the map
    expect(mapMaterial(m, "normal").map).toBe(normal);
    expect(mapMaterial(m, "metalRough").map).toBe(mr);
    const occlusion = mapMaterial(m, "occlusion");
    expect(occlusion.map).toBe(ao);
    expect(srgb(occlusion.color)).toBe("ffffff");
  });

  it("shows what the factors mean where a map is missing", () => {
    const m = new MeshStandardMaterial({ color: 0xff0000, roughness: 1, metalness: 1 });
    expect(srgb(mapMaterial(m, "base").color)).toBe("ff0000");
    expect(srgb(mapMaterial(m, "normal").color)).toBe("8080ff");
    expect(srgb(mapMaterial(m, "metalRough").color)).toBe("00ffff"); // green roughness 1, blue metallic 1
    expect(srgb(mapMaterial(m, "occlusion").color)).toBe("ffffff");
  });
});

describe("uvCheckerTexture", () => {
  it("alternates light and dark squares and changes hue along u", () => {
    const t: DataTexture = uvCheckerTexture(64, 4);
    const data = t.image.data as Uint8Array;
    const px = (x: number, y: number) => Array.from(data.subarray((y * 64 + x) * 4, (y * 64 + x) * 4 + 3));
    const lum = (p: number[]) => p.reduce((a, b) => a + b, 0);
    expect(lum(px(2, 2))).toBeGreaterThan(lum(px(18, 2)) + 150); // light square, dark neighbour
    expect(px(2, 2)).not.toEqual(px(34, 2)); // two light squares along u differ in hue
    expect(px(18, 2)).not.toEqual(px(50, 2));
  });
});
