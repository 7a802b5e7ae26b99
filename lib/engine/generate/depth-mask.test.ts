// subjectMask pinned on small synthetic images: the degree's edge one grey level either side,
// the 0.5% subject share, the speck size, the bisection when a degree removes everything, the
// alpha silhouette, a uniform frame and a subject touching the border.
import { describe, expect, it } from "vitest";
import { subjectMask } from "./depth-mask";
import type { DecodedImage } from "./image-input";
import { countSet } from "./mask-ops";
import { synthImage } from "./generate.test-helpers";

// A grey offset o on every channel is at normalised RGB distance sqrt(3 o^2) / (255 sqrt 3) = o / 255
// from the backdrop. Images are 100 x 100 (n = 10000) unless said: a subject needs 0.5% = 50 pixels,
// specks below max(4, round(0.2%)) = 20 pixels go, and the border ring is 1 pixel wide.
const BG = 20;
const grey = (o: number): [number, number, number] => [BG + o, BG + o, BG + o];
const rect = (x0: number, y0: number, w: number, h: number) => (x: number, y: number) => x >= x0 && x < x0 + w && y >= y0 && y < y0 + h;

/** 100 x 100 backdrop with rectangles [inside, grey offset] painted in order. */
function scene(parts: [(x: number, y: number) => boolean, number][], size = 100): DecodedImage {
  return synthImage(size, size, grey(0), (x, y) => {
    for (const [inside, o] of parts) if (inside(x, y)) return grey(o);
    return null;
  });
}

/** The set pixels as a predicate check: mask equals `inside` everywhere. */
function expectMask(m: Uint8Array, w: number, inside: (x: number, y: number) => boolean) {
  const wrong: number[] = [];
  for (let p = 0; p < m.length; p++) if (m[p] !== (inside(p % w, Math.floor(p / w)) ? 1 : 0)) wrong.push(p);
  expect(wrong.slice(0, 5)).toEqual([]);
}

describe("subjectMask: the degree", () => {
  // An anchor square at offset 200 (0.784) stays at every degree below it; a test square at
  // offset o goes once the degree reaches o / 255 (a uniform border adds no noise).
  const anchor = rect(10, 10, 20, 20);
  const probe = rect(60, 60, 10, 10);

  it("degree 0.2 (51/255) removes a region 50 grey levels off the backdrop and keeps one 52 off", () => {
    const keep = subjectMask(
      scene([
        [anchor, 200],
        [probe, 52],
      ]),
      0.2,
    );
    expectMask(keep, 100, (x, y) => anchor(x, y) || probe(x, y));
    const gone = subjectMask(
      scene([
        [anchor, 200],
        [probe, 50],
      ]),
      0.2,
    );
    expectMask(gone, 100, anchor);
  });

  it("the same region flips between degree 50/255 and 52/255 (a higher degree removes more)", () => {
    const img = scene([
      [anchor, 200],
      [probe, 51],
    ]);
    expect(countSet(subjectMask(img, 50 / 255))).toBe(400 + 100);
    expect(countSet(subjectMask(img, 52 / 255))).toBe(400);
  });

  it("a region just under the degree goes: offset 76 (0.298) at degree 0.3, not a bisected tolerance below it", () => {
    // A bisection from 0.3 would stop at 0.29765625 and keep it: the degree itself is tried first.
    expectMask(
      subjectMask(
        scene([
          [anchor, 200],
          [probe, 76],
        ]),
        0.3,
      ),
      100,
      anchor,
    );
  });

  it("below 0.01 the tolerance stays 0.01: offset 3 (0.0118) is subject at degree 0, offset 2 (0.0078) is not", () => {
    expectMask(
      subjectMask(
        scene([
          [anchor, 200],
          [probe, 3],
        ]),
        0,
      ),
      100,
      (x, y) => anchor(x, y) || probe(x, y),
    );
    expectMask(
      subjectMask(
        scene([
          [anchor, 200],
          [probe, 2],
        ]),
        0,
      ),
      100,
      anchor,
    );
    expectMask(
      subjectMask(
        scene([
          [anchor, 200],
          [probe, 2],
        ]),
        0.005,
      ),
      100,
      anchor,
    );
  });
});

describe("subjectMask: what counts as a subject", () => {
  it("50 pixels (0.5% of 10000) are a subject, 49 are not and the whole frame is kept", () => {
    const fifty = rect(40, 40, 5, 10);
    expectMask(subjectMask(scene([[fifty, 200]]), 0.3), 100, fifty);
    const fortyNine = (x: number, y: number) => fifty(x, y) && !(x === 44 && y === 49);
    expect(countSet(subjectMask(scene([[fortyNine, 200]]), 0.3))).toBe(10000);
  });

  it("a speck of 19 pixels beside the subject goes, one of 20 stays (0.2% of the frame)", () => {
    const anchor = rect(10, 10, 20, 20);
    const speck20 = rect(60, 60, 4, 5);
    const speck19 = (x: number, y: number) => speck20(x, y) && !(x === 63 && y === 64);
    expectMask(
      subjectMask(
        scene([
          [anchor, 200],
          [speck20, 200],
        ]),
        0.3,
      ),
      100,
      (x, y) => anchor(x, y) || speck20(x, y),
    );
    expectMask(
      subjectMask(
        scene([
          [anchor, 200],
          [speck19, 200],
        ]),
        0.3,
      ),
      100,
      anchor,
    );
  });

  it("on a small frame the speck floor is 4 pixels: at 40 x 40 (round(3.2) = 3) a 3-pixel speck goes, 4 stay", () => {
    const anchor = rect(5, 5, 6, 6);
    const four = rect(30, 30, 2, 2);
    const three = (x: number, y: number) => four(x, y) && !(x === 31 && y === 31);
    expectMask(
      subjectMask(
        scene(
          [
            [anchor, 200],
            [four, 200],
          ],
          40,
        ),
        0.3,
      ),
      40,
      (x, y) => anchor(x, y) || four(x, y),
    );
    expectMask(
      subjectMask(
        scene(
          [
            [anchor, 200],
            [three, 200],
          ],
          40,
        ),
        0.3,
      ),
      40,
      anchor,
    );
  });

  it("an enclosed backdrop-coloured pocket of 0.1% (10 pixels) stays a hole", () => {
    const sq = rect(40, 40, 20, 20);
    const hole = rect(45, 45, 2, 5);
    const img = scene([
      [hole, 0],
      [sq, 200],
    ]);
    expectMask(subjectMask(img, 0.3), 100, (x, y) => sq(x, y) && !hole(x, y));
  });

  it("a uniform frame has no subject at any degree: the whole frame is kept", () => {
    const img = synthImage(30, 20, [90, 120, 150], () => null);
    for (const degree of [0, 0.3, 1]) expect(countSet(subjectMask(img, degree))).toBe(600);
  });

  it("a subject touching the border is kept whole (only backdrop-coloured pixels reached from the border go)", () => {
    const corner = rect(0, 0, 30, 30);
    expectMask(subjectMask(scene([[corner, 120]]), 0.3), 100, corner);
    const band = rect(0, 0, 100, 20); // top band across the frame: 298 of the 396 border pixels stay backdrop
    expectMask(subjectMask(scene([[band, 120]]), 0.3), 100, band);
  });
});

describe("subjectMask: a degree that removes everything", () => {
  it("bisects 7 times for the largest tolerance that still leaves a subject", () => {
    // A: 10 x 10 at 153 (0.6); C: 5 x 5 at 151 (0.5922), 25 pixels, not a subject alone.
    // Degree 0.9 removes both. Mids: 0.45 (A, C stay) lo; 0.675 (none) hi; 0.5625 lo; 0.61875 hi;
    // 0.590625 (A, C stay) lo; 0.6046875 hi; 0.59765625 (A stays, C goes) lo. The 7th mid is kept:
    // A alone. (After 6 steps C would still be there; taking the first mid that works, 0.45, too.)
    const a = rect(20, 20, 10, 10);
    const c = rect(60, 60, 5, 5);
    const img = scene([
      [a, 153],
      [c, 151],
    ]);
    expectMask(subjectMask(img, 0.9), 100, a);
    // At 0.59 C is still there; at 0.6 (A's own distance) C has gone and A is left.
    expectMask(subjectMask(img, 0.59), 100, (x, y) => a(x, y) || c(x, y));
    expectMask(subjectMask(img, 0.6), 100, a);
  });

  it("stops after the 7th step, not later", () => {
    // A at 154 (0.6039), C at 153 (0.6): mids 0.45 lo, 0.675 hi, 0.5625 lo, 0.61875 hi, 0.590625 lo,
    // 0.6046875 hi, 0.59765625 lo: A and C both stay (an 8th step, 0.601171875, would drop C).
    const a = rect(20, 20, 10, 10);
    const c = rect(60, 60, 5, 5);
    const img = scene([
      [a, 154],
      [c, 153],
    ]);
    expectMask(subjectMask(img, 0.9), 100, (x, y) => a(x, y) || c(x, y));
  });

  it("bisects from 0 up: a subject below a quarter of the degree is still found by the bisection", () => {
    // A at 26 (0.102), C at 13 (0.051, 25 pixels). Degree 0.9: mids 0.45, 0.225, 0.1125 (none) hi,
    // 0.05625 lo, 0.084375 lo, 0.0984375 lo (A alone), 0.10546875 hi: A alone, C removed.
    const a = rect(20, 20, 10, 10);
    const c = rect(60, 60, 5, 5);
    expectMask(
      subjectMask(
        scene([
          [a, 26],
          [c, 13],
        ]),
        0.9,
      ),
      100,
      a,
    );
  });

  it("with no subject at any bisected tolerance, tolerance 0 is tried before the whole frame", () => {
    // Degree 2 (beyond the field's range): the smallest mid is 2/128 = 0.0156, which still removes a
    // square at offset 3 (0.0118); tolerance 0 (0.01) keeps it. For degrees up to 1.28 this last try
    // equals the last mid.
    const sq = rect(40, 40, 10, 10);
    expectMask(subjectMask(scene([[sq, 3]]), 2), 100, sq);
    expect(countSet(subjectMask(scene([[sq, 2]]), 2))).toBe(10000);
  });
});

describe("subjectMask: alpha", () => {
  /** Uniform colour, alpha 255 in `inside`, `outside` alpha elsewhere. */
  function alphaImage(inside: (x: number, y: number) => boolean, outside: number, a = 128): DecodedImage {
    const img = synthImage(100, 100, [200, 10, 10], () => null);
    for (let p = 0; p < 10000; p++) img.data[p * 4 + 3] = inside(p % 100, Math.floor(p / 100)) ? a : outside;
    return { ...img, hasAlpha: true };
  }

  it("uses the silhouette (alpha >= 128) whatever the colours and the degree", () => {
    const sq = rect(30, 30, 20, 20);
    for (const degree of [0, 0.5, 1]) expectMask(subjectMask(alphaImage(sq, 127), degree), 100, sq);
  });

  it("a silhouette under 0.5% falls back to the whole frame, without any colour bisection", () => {
    const small = rect(30, 30, 7, 7); // 49 pixels
    expect(countSet(subjectMask(alphaImage(small, 0, 255), 0.3))).toBe(10000);
    const fifty = rect(30, 30, 5, 10);
    expectMask(subjectMask(alphaImage(fifty, 0, 255), 0.3), 100, fifty);
  });

  it("without the hasAlpha flag the alpha channel is ignored", () => {
    const sq = rect(30, 30, 20, 20);
    const img = { ...alphaImage(sq, 0, 255), hasAlpha: false };
    expect(countSet(subjectMask(img, 0.3))).toBe(10000); // one colour: no subject
  });
});
