import type { MeshInput } from "./mesh-analysis";

/** A bumpy sphere of `n`² × 2 triangles, shuffled so the index's order is not the mesh's. */
export function bumpySphere(n: number, seed = 1): MeshInput {
  let s = seed;
  const random = () => ((s = (s * 16807) % 2147483647) - 1) / 2147483646;
  const positions: number[] = [];
  for (let i = 0; i <= n; i++)
    for (let j = 0; j <= n; j++) {
      const th = (i / n) * Math.PI,
        ph = (j / n) * 2 * Math.PI;
      const r = 1 + 0.2 * random();
      positions.push(r * Math.sin(th) * Math.cos(ph), r * Math.cos(th), r * Math.sin(th) * Math.sin(ph));
    }
  const tris: number[][] = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j;
      tris.push([a, a + n + 1, a + 1], [a + 1, a + n + 1, a + n + 2]);
    }
  tris.sort(() => random() - 0.5);
  return { positions: new Float32Array(positions), indices: new Uint32Array(tris.flat()) };
}
