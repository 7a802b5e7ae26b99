import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { depthCover, renderCover, renderScene } from "./cover";
import type { Material, MeshPart, Scene } from "@/lib/engine/mesh/types";
import { box, sceneOf, uvSphere } from "./generate.test-helpers";

describe("cover", () => {
  it("draws the object in the middle, background in the corners, lit from above", () => {
    const img = renderScene(sceneOf(uvSphere(30)), { size: 128 });
    const at = (x: number, y: number) => img.data[(y * 128 + x) * 4]!;
    const corner = at(2, 2);
    expect(Math.abs(at(64, 64) - corner)).toBeGreaterThan(10);
    // Upper part of the sphere brighter than its lower part.
    expect(at(64, 35)).toBeGreaterThan(at(64, 85) + 20);
  });

  it("uses vertex colours", () => {
    const s = uvSphere(30);
    s.colors = new Float32Array(s.positions.length).map((_, i) => (i % 3 === 0 ? 1 : 0));
    const img = renderScene(sceneOf(s), { size: 64 });
    const o = (32 * 64 + 32) * 4;
    expect(img.data[o]!).toBeGreaterThan(img.data[o + 1]! + 50);
  });

  it("depth previews are PNGs at most 512 px", async () => {
    const gray = Float32Array.from({ length: 1024 * 256 }, (_, i) => (i % 1024) / 1023);
    const meta = await sharp(await depthCover(1024, 256, gray)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 512, 128]);
  });

  // What the cover shows follows the scene and the camera, pixel by pixel.
  const material = (rgb: [number, number, number]): Material => ({
    name: "m",
    baseColorFactor: [...rgb, 1],
    metallicFactor: 0,
    roughnessFactor: 1,
  });
  const coloured = (part: MeshPart, rgb: [number, number, number]): MeshPart => ({ ...part, material: material(rgb) });
  const pixel = (img: { width: number; data: Uint8Array }, x: number, y: number) => {
    const o = (y * img.width + x) * 4;
    return [img.data[o]!, img.data[o + 1]!, img.data[o + 2]!];
  };
  /** The object's pixels (not the background's gradient): their bounds and count. */
  const silhouette = (img: { width: number; height: number; data: Uint8Array }, background: Uint8Array) => {
    let x0 = Infinity,
      x1 = -Infinity,
      y0 = Infinity,
      y1 = -Infinity,
      n = 0;
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++) {
        const o = (y * img.width + x) * 4;
        if (Math.abs(img.data[o]! - background[o]!) + Math.abs(img.data[o + 2]! - background[o + 2]!) < 3) continue;
        n++;
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
    return { x0, x1, y0, y1, n };
  };
  const empty: Scene = { parts: [] };

  it("an empty scene is the background alone: a soft grey, lighter at the top, a touch of blue", () => {
    const img = renderScene(empty, { size: 64 });
    expect([img.width, img.height, img.data.length]).toEqual([64, 64, 64 * 64 * 4]);
    const [r, g, b] = pixel(img, 10, 0);
    expect(r).toBe(g);
    expect(b).toBeGreaterThan(r!);
    expect(r).toBeGreaterThan(pixel(img, 10, 63)[0]! + 10);
    expect(pixel(img, 0, 20)).toEqual(pixel(img, 63, 20)); // no change across a row
    for (let i = 3; i < img.data.length; i += 4) expect(img.data[i]).toBe(255);
  });

  it("fits the object to 88% of the frame, centred, at every size", () => {
    for (const size of [64, 200]) {
      const img = renderScene(sceneOf(uvSphere(7, 24, 48, [100, -40, 3])), { size });
      const sil = silhouette(img, renderScene(empty, { size }).data);
      const w = sil.x1 - sil.x0 + 1,
        h = sil.y1 - sil.y0 + 1;
      expect(Math.max(w, h) / size).toBeCloseTo(0.88, 1);
      expect((sil.x0 + sil.x1 + 1) / 2 / size).toBeCloseTo(0.5, 1);
      expect((sil.y0 + sil.y1 + 1) / 2 / size).toBeCloseTo(0.5, 1);
    }
  });

  it("looks from the azimuth and elevation asked: the nearer of two cubes hides the farther", () => {
    const scene = sceneOf(coloured(box([20, 0, -5], [30, 10, 5]), [1, 0, 0]), coloured(box([-30, 0, -5], [-20, 10, 5]), [0, 0, 1]));
    const redness = (opts: { azimuthDeg: number; elevationDeg: number }) => {
      const img = renderScene(scene, { size: 64, ...opts });
      let red = 0,
        blue = 0;
      for (let i = 0; i < img.data.length; i += 4) {
        if (img.data[i]! > img.data[i + 2]! + 40) red++;
        if (img.data[i + 2]! > img.data[i]! + 40) blue++;
      }
      return red / (red + blue);
    };
    // From +X the red cube stands in front of the blue one; from -X the other way round.
    expect(redness({ azimuthDeg: 90, elevationDeg: 0 })).toBeGreaterThan(0.95);
    expect(redness({ azimuthDeg: -90, elevationDeg: 0 })).toBeLessThan(0.05);
    // From the front (+Z) both show, side by side.
    expect(redness({ azimuthDeg: 0, elevationDeg: 0 })).toBeCloseTo(0.5, 1);
    // From straight above, too; red on the right (+X).
    const top = renderScene(scene, { size: 64, azimuthDeg: 0, elevationDeg: 89 });
    expect(pixel(top, 56, 32)[0]).toBeGreaterThan(pixel(top, 56, 32)[2]! + 40);
    expect(pixel(top, 8, 32)[2]).toBeGreaterThan(pixel(top, 8, 32)[0]! + 40);
  });

  it("colours by material, else clay grey; texture by uv, times the material factor", () => {
    const mid = (part: MeshPart) => pixel(renderScene(sceneOf(part), { size: 64 }), 32, 32);
    const [r, g, b] = mid(coloured(uvSphere(30), [0, 1, 0]));
    expect(g).toBeGreaterThan(100);
    expect(r! + b!).toBe(0);
    const clay = mid(uvSphere(30));
    expect(clay[0]).toBeGreaterThan(clay[1]!);
    expect(clay[1]).toBeGreaterThan(clay[2]!);
    // A quad facing the camera, its texture red on the left half, blue on the right.
    const quad: MeshPart = {
      name: "q",
      positions: new Float32Array([-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0]),
      indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
      uvs: new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]),
      material: {
        ...material([1, 1, 1]),
        baseColorTexture: { width: 2, height: 1, data: new Uint8Array([255, 0, 0, 255, 0, 0, 255, 255]) },
      },
    };
    const img = renderScene(sceneOf(quad), { size: 64, azimuthDeg: 0, elevationDeg: 0 });
    const left = pixel(img, 16, 32),
      right = pixel(img, 48, 32);
    expect(left[0]).toBeGreaterThan(150);
    expect(left[2]).toBe(0);
    expect(right[2]).toBeGreaterThan(150);
    expect(right[0]).toBe(0);
    // The material factor tints the texture: a zero red factor leaves the left half black.
    const tinted = renderScene(sceneOf({ ...quad, material: { ...quad.material!, baseColorFactor: [0, 1, 1, 1] } }), {
      size: 64,
      azimuthDeg: 0,
      elevationDeg: 0,
    });
    expect(pixel(tinted, 16, 32)).toEqual([0, 0, 0]);
  });

  it("shades both sides: a quad seen from behind is lit like from the front", () => {
    const quad: MeshPart = {
      name: "q",
      positions: new Float32Array([-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0]),
      indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    };
    const front = pixel(renderScene(sceneOf(quad), { size: 32, azimuthDeg: 0, elevationDeg: 0 }), 16, 16);
    const back = pixel(renderScene(sceneOf(quad), { size: 32, azimuthDeg: 180, elevationDeg: 0 }), 16, 16);
    expect(front[0]).toBeGreaterThan(60);
    expect(Math.abs(front[0]! - back[0]!)).toBeLessThanOrEqual(2);
  });

  it("depth previews map 0..1 to black..white, clamp outside, and never enlarge", async () => {
    const gray = Float32Array.from([-0.5, 0, 0.5, 1, 1.5, 0.25]);
    const { data, info } = await sharp(await depthCover(3, 2, gray))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([3, 2]);
    expect(Array.from(data.filter((_, i) => i % info.channels === 0))).toEqual([0, 0, 128, 255, 255, 64]);
    const tall = await sharp(await depthCover(100, 1000, new Float32Array(100 * 1000), 100)).metadata();
    expect([tall.width, tall.height]).toEqual([10, 100]);
  });

  // Exact figures, worked out by hand from the camera model: looking along -Z from the front
  // (azimuth 0, elevation 0), right is +X and up +Y, and the light comes from
  // (-0.45 right + 0.75 up + 0.5 towards the viewer), normalised.
  const srgb = (linear: number) => {
    const c = Math.min(1, Math.max(0, Math.round(linear * 4095) / 4095));
    return Math.round(Math.min(1, Math.max(0, c <= 0.0031308 ? c * 12.92 : 1.055 * Math.pow(c, 1 / 2.4) - 0.055)) * 255);
  };
  const LIGHT_Z = 0.5 / Math.hypot(0.45, 0.75, 0.5);
  /** Shade of a surface facing the viewer: ambient + Lambert + a rim of "facing" light. */
  const FRONT_SHADE = 0.28 + 0.8 * LIGHT_Z + 0.12;
  const front = { azimuthDeg: 0, elevationDeg: 0 };
  const square = (extra: Partial<MeshPart> = {}): MeshPart => ({
    name: "q",
    positions: new Float32Array([-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0]),
    indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    ...extra,
  });

  it("shades a square facing the camera exactly: material colour times ambient, Lambert and facing terms, in sRGB", () => {
    const rgb: [number, number, number] = [1, 0.5, 0.2];
    const img = renderScene(sceneOf(coloured(square(), rgb)), { size: 32, ...front });
    const expected = rgb.map((c) => srgb(c * FRONT_SHADE));
    expect(expected).toEqual([231, 169, 111]); // worked by hand: 0.797, 0.398 and 0.159 linear
    for (const [x, y] of [
      [16, 16],
      [6, 6],
      [25, 25],
    ] as const)
      expect(pixel(img, x, y)).toEqual(expected);
    // Clay grey without a material.
    expect(pixel(renderScene(sceneOf(square()), { size: 32, ...front }), 16, 16)).toEqual(
      [0.5, 0.47, 0.43].map((c) => srgb(c * FRONT_SHADE)),
    );
  });

  it("a tilted square gets the Lambert term of its own normal towards the light", () => {
    // Turned 60° about the vertical axis, facing right (+X) of the viewer: n = (sin 60°, 0, cos 60°).
    const a = Math.PI / 3;
    const p = [-10, -10, 10, -10, 10, 10, -10, 10].flatMap((v, i) => (i % 2 === 0 ? [v * Math.cos(a), 0, -v * Math.sin(a)] : [v]));
    const positions = new Float32Array([p[0]!, p[3]!, p[2]!, p[4]!, p[7]!, p[6]!, p[8]!, p[11]!, p[10]!, p[12]!, p[15]!, p[14]!]);
    const turned = square({ positions });
    const n = [Math.sin(a), 0, Math.cos(a)];
    const light = [-0.45, 0.75, 0.5].map((c) => c / Math.hypot(0.45, 0.75, 0.5));
    const lambert = Math.max(0, n[0]! * light[0]! + n[2]! * light[2]!);
    const shade = 0.28 + 0.8 * lambert + 0.12 * n[2]!;
    const img = renderScene(sceneOf(turned), { size: 32, ...front });
    const centre = pixel(img, 16, 16);
    expect(centre).toEqual([0.5, 0.47, 0.43].map((c) => srgb(c * shade)));
    // Darker than the same square facing the viewer: it turns away from a light on the left.
    expect(centre[0]).toBeLessThan(srgb(0.5 * FRONT_SHADE));
  });

  it("the background is a vertical gradient, exact per row: 0.78 at the top to 0.66 at the bottom, blue 3% up", () => {
    const size = 16,
      S = size * 2;
    const img = renderScene(empty, { size });
    for (const y of [0, 7, 15]) {
      const g = (0.78 - (0.12 * (2 * y)) / S + 0.78 - (0.12 * (2 * y + 1)) / S) / 2;
      for (const x of [0, 9, 15]) expect(pixel(img, x, y), `(${x}, ${y})`).toEqual([srgb(g), srgb(g), srgb(g * 1.03)]);
    }
  });

  it("fills the square's own pixels, edge to edge: a front-on square is 88% of the frame both ways", () => {
    const size = 50;
    const img = renderScene(sceneOf(coloured(square(), [1, 1, 1])), { size, ...front });
    const sil = silhouette(img, renderScene(empty, { size }).data);
    // 88% of 50 = 44 pixels, centred: columns and rows 3..46 (edge pixels half covered count too).
    expect([sil.x0, sil.x1, sil.y0, sil.y1]).toEqual([3, 46, 3, 46]);
    expect(sil.n).toBe(44 * 44);
    // Full pixels inside are the exact shade; the supersampled edge pixels are a blend with the background.
    const inside = srgb(FRONT_SHADE);
    expect(pixel(img, 4, 25)[0]).toBe(inside);
    expect(pixel(img, 45, 25)[0]).toBe(inside);
  });

  it("interpolates vertex colours across a face, perspective-correct", () => {
    // Left edge red, right edge blue: the centre column is an even mix, in linear light.
    const colors = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0]);
    const img = renderScene(sceneOf(square({ colors })), { size: 32, ...front });
    const [r, g, b] = pixel(img, 16, 16);
    expect(g).toBe(0);
    // Pixel 16 of 32 samples at x = 16.25..16.75 supersampled: a hair right of centre.
    expect(Math.abs(r! - srgb(0.5 * FRONT_SHADE))).toBeLessThanOrEqual(3);
    expect(Math.abs(b! - srgb(0.5 * FRONT_SHADE))).toBeLessThanOrEqual(3);
    expect(b).toBeGreaterThanOrEqual(r!);
    // Near the left edge mostly red, near the right mostly blue.
    expect(pixel(img, 5, 16)[0]).toBeGreaterThan(pixel(img, 5, 16)[2]! + 100);
    expect(pixel(img, 26, 16)[2]).toBeGreaterThan(pixel(img, 26, 16)[0]! + 100);
    // The material factor multiplies vertex colours.
    const halved = renderScene(sceneOf(square({ colors, material: material([0.5, 1, 1]) })), { size: 32, ...front });
    expect(pixel(halved, 5, 16)[0]).toBeLessThan(pixel(img, 5, 16)[0]! - 20);
  });

  it("reads textures in sRGB, wraps uv outside 0..1 and samples the nearest texel", () => {
    // A 2x2 texture: top row grey 128 and white, bottom row black and grey 64; uv shifted by whole tiles.
    const texture = { width: 2, height: 2, data: new Uint8Array([128, 128, 128, 255, 255, 255, 255, 255, 0, 0, 0, 255, 64, 64, 64, 255]) };
    const uvs = new Float32Array([2, 4, 3, 4, 3, 3, 2, 3]); // (0,1) (1,1) (1,0) (0,0) plus whole tiles
    const img = renderScene(sceneOf(square({ uvs, material: { ...material([1, 1, 1]), baseColorTexture: texture } })), {
      size: 32,
      ...front,
    });
    const lin = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : Math.pow((v / 255 + 0.055) / 1.055, 2.4));
    expect(pixel(img, 8, 8)).toEqual(Array(3).fill(srgb(lin(128) * FRONT_SHADE))); // top left
    expect(pixel(img, 24, 8)).toEqual(Array(3).fill(srgb(FRONT_SHADE))); // top right
    expect(pixel(img, 8, 24)).toEqual([0, 0, 0]); // bottom left
    expect(pixel(img, 24, 24)).toEqual(Array(3).fill(srgb(lin(64) * FRONT_SHADE))); // bottom right
  });

  it("the z-buffer keeps the nearest surface whatever the drawing order", () => {
    const near = coloured(square({ positions: new Float32Array([-10, -10, 5, 10, -10, 5, 10, 10, 5, -10, 10, 5]) }), [1, 0, 0]);
    const far = coloured(square({ positions: new Float32Array([-5, -5, -5, 5, -5, -5, 5, 5, -5, -5, 5, -5]) }), [0, 0, 1]);
    for (const parts of [
      [near, far],
      [far, near],
    ]) {
      const img = renderScene({ parts }, { size: 32, ...front });
      expect(pixel(img, 16, 16)).toEqual([srgb(FRONT_SHADE), 0, 0]);
    }
  });

  // Any camera: the light is fixed to the camera (from upper left, behind the viewer), so a face
  // turned by (r, u, b) in the camera's own right/up/back axes gets the same shade at any azimuth
  // and elevation. The camera basis is the usual look-at one, written out here.
  const camera = (azDeg: number, elDeg: number) => {
    const az = (azDeg * Math.PI) / 180,
      el = (elDeg * Math.PI) / 180;
    const back = [Math.sin(az) * Math.cos(el), Math.sin(el), Math.cos(az) * Math.cos(el)];
    const r = Math.hypot(back[2]!, back[0]!);
    const right = [back[2]! / r, 0, -back[0]! / r];
    const up = [
      back[1]! * right[2]! - back[2]! * right[1]!,
      back[2]! * right[0]! - back[0]! * right[2]!,
      back[0]! * right[1]! - back[1]! * right[0]!,
    ];
    return { back, right, up };
  };
  type V3 = [number, number, number];
  const along = (cam: ReturnType<typeof camera>, [r, u, b]: V3) =>
    [0, 1, 2].map((i) => r * cam.right[i]! + u * cam.up[i]! + b * cam.back[i]!);
  const crossV = (a: number[], b: number[]) => [
    a[1]! * b[2]! - a[2]! * b[1]!,
    a[2]! * b[0]! - a[0]! * b[2]!,
    a[0]! * b[1]! - a[1]! * b[0]!,
  ];
  const unit = (a: number[]) => a.map((c) => c / Math.hypot(a[0]!, a[1]!, a[2]!));
  /** A 20 mm square through the origin with (world) normal n, counter-clockwise seen from n's side. */
  const squareFacing = (n: number[], extra: Partial<MeshPart> = {}): MeshPart => {
    const helper = Math.abs(n[1]!) < 0.9 ? [0, 1, 0] : [1, 0, 0];
    const e1 = unit(crossV(helper, n)),
      e2 = crossV(n, e1);
    const corner = (a: number, b: number) => [0, 1, 2].map((i) => 10 * (a * e1[i]! + b * e2[i]!));
    return square({ positions: new Float32Array([...corner(-1, -1), ...corner(1, -1), ...corner(1, 1), ...corner(-1, 1)]), ...extra });
  };
  const shadeOf = ([r, u, b]: V3) => {
    const l = Math.hypot(0.45, 0.75, 0.5);
    return 0.28 + 0.8 * Math.max(0, (-0.45 * r + 0.75 * u + 0.5 * b) / l) + 0.12 * Math.max(0, b);
  };
  const CLAY_RGB = [0.5, 0.47, 0.43];

  it("lights a face by its turn relative to the camera, the same from any azimuth and elevation", () => {
    const turns: V3[] = [
      [0, 0, 1],
      [0.6, 0, 0.8],
      [0, 0.6, 0.8],
      [-0.48, -0.36, 0.8],
      [0.36, -0.48, 0.8],
      // Turned away from the light: ambient and facing light only.
      [0.6, -0.64, 0.48],
    ];
    for (const [az, el] of [
      [50, 30],
      [-120, -20],
      [200, 65],
    ] as const) {
      const cam = camera(az, el);
      for (const turn of turns) {
        const img = renderScene(sceneOf(squareFacing(along(cam, turn))), { size: 32, azimuthDeg: az, elevationDeg: el });
        const got = pixel(img, 16, 16),
          want = CLAY_RGB.map((c) => srgb(c * shadeOf(turn)));
        for (let k = 0; k < 3; k++)
          expect(Math.abs(got[k]! - want[k]!), `az ${az} el ${el} turn ${turn.join(",")}: ${got} vs ${want}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it("a face seen from behind is shaded as its front, from any camera; given normals are normalised first", () => {
    const cam = camera(-35, 40);
    const turn: V3 = [0.6, 0, 0.8];
    const want = CLAY_RGB.map((c) => srgb(c * shadeOf(turn)));
    const n = along(cam, turn);
    const away = squareFacing(n.map((c) => -c));
    // The same square wound the other way: its normal points away from the camera.
    expect(pixel(renderScene(sceneOf(away), { size: 32, azimuthDeg: -35, elevationDeg: 40 }), 16, 16)).toEqual(
      pixel(renderScene(sceneOf(squareFacing(n)), { size: 32, azimuthDeg: -35, elevationDeg: 40 }), 16, 16),
    );
    // Normals supplied three times too long, pointing away: the same shade as computed ones.
    const long = squareFacing(n);
    long.normals = new Float32Array(Array.from({ length: 4 }, () => n.map((c) => -3 * c)).flat());
    const got = pixel(renderScene(sceneOf(long), { size: 32, azimuthDeg: -35, elevationDeg: 40 }), 16, 16);
    for (let k = 0; k < 3; k++) expect(Math.abs(got[k]! - want[k]!)).toBeLessThanOrEqual(1);
  });

  it("fits a tall object by its height and centres its silhouette in both directions", () => {
    // An L of two bars seen from the default three-quarter view: perspective makes the
    // projection lopsided about the box's centre; the frame is re-centred on the silhouette.
    const scene = sceneOf(box([0, 0, 0], [12, 6, 6]), box([0, 0, 0], [6, 40, 6]));
    for (const size of [60, 101]) {
      const sil = silhouette(renderScene(scene, { size }), renderScene(empty, { size }).data);
      const w = sil.x1 - sil.x0 + 1,
        h = sil.y1 - sil.y0 + 1;
      expect(h).toBeGreaterThan(w);
      // Edge pixels partly covered count: up to one more row than 88% exactly.
      expect(h - 0.88 * size, `height ${h} at ${size}`).toBeGreaterThanOrEqual(-0.5);
      expect(h - 0.88 * size, `height ${h} at ${size}`).toBeLessThanOrEqual(1.5);
      expect(Math.abs(sil.x0 + sil.x1 + 1 - size), `columns ${sil.x0}..${sil.x1}`).toBeLessThanOrEqual(1);
      expect(Math.abs(sil.y0 + sil.y1 + 1 - size), `rows ${sil.y0}..${sil.y1}`).toBeLessThanOrEqual(1);
    }
  });

  it("puts the camera where perspective says: the nearer of two equal squares looks larger by the ratio of their distances", () => {
    // Squares 10 mm across at z = +10 and z = -10. The camera, on +Z, stands at
    // radius / sin(15°) × 1.02 from the centre (30° field of view, the bounding sphere filling it).
    const at = (x: number, z: number, rgb: V3) =>
      coloured(square({ positions: new Float32Array([x - 5, -5, z, x + 5, -5, z, x + 5, 5, z, x - 5, 5, z]) }), rgb);
    const scene = sceneOf(at(-15, 10, [1, 0, 0]), at(15, -10, [0, 0, 1]));
    const radius = Math.hypot(40, 10, 20) / 2;
    const dist = (radius / Math.sin((15 * Math.PI) / 180)) * 1.02;
    const img = renderScene(scene, { size: 400, ...front });
    const rows = (channel: number) => {
      const ys = new Set<number>();
      for (let y = 0; y < 400; y++)
        for (let x = 0; x < 400; x++) {
          const p = pixel(img, x, y);
          if (p[channel]! > p[2 - channel]! + 60) ys.add(y);
        }
      return ys.size;
    };
    const ratio = rows(0) / rows(2);
    expect(ratio).toBeCloseTo((dist + 10) / (dist - 10), 1);
    expect(Math.abs(ratio / ((dist + 10) / (dist - 10)) - 1)).toBeLessThan(0.03);
  });

  it("skips triangles of no area instead of smearing them", () => {
    // The same square twice, with three extra points in a line in front of it; the second
    // part also makes a triangle of them.
    const positions = new Float32Array([-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0, -9, -9, 5, 0, 0, 5, 9, 9, 5]);
    const without = renderScene(sceneOf(square({ positions })), { size: 32, ...front });
    const withSliver = renderScene(sceneOf(square({ positions, indices: new Uint32Array([0, 1, 2, 0, 2, 3, 4, 5, 6]) })), {
      size: 32,
      ...front,
    });
    expect(Buffer.from(withSliver.data).equals(Buffer.from(without.data))).toBe(true);
  });

  it("interpolates colours linearly across the faces, pixel by pixel, with no seam on the diagonal", () => {
    // Vertex colours that are a linear function of position: red grows to the right, green
    // upwards. Both triangles then reproduce that function exactly.
    const colors = new Float32Array([0, 0, 0.25, 1, 0, 0.25, 1, 1, 0.25, 0, 1, 0.25]);
    const img = renderScene(sceneOf(square({ colors })), { size: 50, ...front });
    // The square covers pixels 3..46 both ways (88% of 50), edges on pixel boundaries.
    for (let y = 4; y <= 45; y++)
      for (let x = 4; x <= 45; x++) {
        const u = (x + 0.5 - 3) / 44,
          v = 1 - (y + 0.5 - 3) / 44;
        const want = [u, v, 0.25].map((c) => srgb(c * FRONT_SHADE));
        const got = pixel(img, x, y);
        for (let k = 0; k < 3; k++) expect(Math.abs(got[k]! - want[k]!), `(${x}, ${y}): ${got} vs ${want}`).toBeLessThanOrEqual(2);
      }
  });

  it("samples the nearest texel of a texture across the face; a texture without uvs leaves the material colour", () => {
    const greys = [0, 85, 170, 255];
    const texture = { width: 4, height: 1, data: new Uint8Array(greys.flatMap((g) => [g, g, g, 255])) };
    const uvs = new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]);
    const mat = { ...material([1, 1, 1]), baseColorTexture: texture };
    const img = renderScene(sceneOf(square({ uvs, material: mat })), { size: 50, ...front });
    const lin = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : Math.pow((v / 255 + 0.055) / 1.055, 2.4));
    let checked = 0;
    for (let x = 4; x <= 45; x++) {
      // Both supersamples of the pixel fall in one texel.
      const t0 = Math.floor(((x + 0.25 - 3) / 44) * 4),
        t1 = Math.floor(((x + 0.75 - 3) / 44) * 4);
      if (t0 !== t1) continue;
      for (const y of [5, 25, 44]) expect(pixel(img, x, y), `(${x}, ${y})`).toEqual(Array(3).fill(srgb(lin(greys[t0]!) * FRONT_SHADE)));
      checked++;
    }
    expect(checked).toBeGreaterThan(35);
    const plain = renderScene(sceneOf(square({ material: { ...mat, baseColorFactor: [0.2, 0.6, 1, 1] } })), { size: 32, ...front });
    expect(pixel(plain, 16, 16)).toEqual([0.2, 0.6, 1].map((c) => srgb(c * FRONT_SHADE)));
  });

  it("depth previews stretch to the scaled size rather than crop", async () => {
    // 1000 x 3 scales to 512 x 2: a left-to-right ramp keeps both ends.
    const gray = Float32Array.from({ length: 3000 }, (_, i) => (i % 1000) / 999);
    const { data, info } = await sharp(await depthCover(1000, 3, gray))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([512, 2]);
    expect(data[0]).toBeLessThanOrEqual(2);
    expect(data[(info.width - 1) * info.channels]).toBeGreaterThanOrEqual(253);
  });

  it("fills a lone triangle, not its bounding box", () => {
    const size = 50;
    const tri = square({ indices: new Uint32Array([0, 1, 2]) });
    const sil = silhouette(renderScene(sceneOf(tri), { size, ...front }), renderScene(empty, { size }).data);
    // A right triangle over the 44 x 44 pixel square: half of it, plus the diagonal's blended pixels.
    expect(sil.n).toBeGreaterThanOrEqual(44 * 44 * 0.5);
    expect(sil.n).toBeLessThanOrEqual(44 * 44 * 0.5 + 46);
  });

  it("reads each corner's own uv whatever the triangles' vertex order", () => {
    // A vertical ramp of four texels, v = 0 at the top; the triangles list their corners starting
    // from different vertices.
    const greys = [0, 85, 170, 255];
    const texture = { width: 1, height: 4, data: new Uint8Array(greys.flatMap((g) => [g, g, g, 255])) };
    const uvs = new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]);
    const lin = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : Math.pow((v / 255 + 0.055) / 1.055, 2.4));
    for (const indices of [
      [1, 2, 0, 2, 3, 0],
      [2, 3, 1, 3, 0, 1],
    ]) {
      const part = square({ uvs, indices: new Uint32Array(indices), material: { ...material([1, 1, 1]), baseColorTexture: texture } });
      const img = renderScene(sceneOf(part), { size: 50, ...front });
      // Rows 3..46 cover v from 0 (top) to 1: texel k spans rows 3 + 11k .. 13 + 11k.
      for (let k = 0; k < 4; k++)
        for (const x of [6, 25, 43])
          expect(pixel(img, x, 8 + 11 * k), `${indices} texel ${k}`).toEqual(Array(3).fill(srgb(lin(greys[k]!) * FRONT_SHADE)));
    }
  });

  // Last: the one full-size render, the slowest test here (mutation runs stop at the first failure).
  it("renders a shaded 512x512 PNG", async () => {
    const png = await renderCover(sceneOf(uvSphere(30)));
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([512, 512]);
    const greys = new Set<number>();
    for (let i = 0; i < data.length; i += info.channels) greys.add(data[i]!);
    expect(greys.size).toBeGreaterThan(50); // shading, not a flat fill
  });
});
