// Writes public/env/studio.hdr: a small procedural "photo studio" environment map
// (equirectangular, Radiance RGBE, run-length encoded) that lights the result viewer.
// It is made here rather than downloaded so the viewer needs no CDN and the file's
// origin is plain; its output is committed, so this only runs when the lighting changes.
//   node scripts/make-env-map.mjs [out.hdr]
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const W = 256;
const H = 128;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = process.argv[2] ?? path.join(root, "public/env/studio.hdr");

const norm = ([x, y, z]) => {
  const l = Math.hypot(x, y, z);
  return [x / l, y / l, z / l];
};
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const mix = (a, b, t) => a.map((v, k) => v + (b[k] - v) * t);
const smoothstep = (e0, e1, x) => {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

// Soft boxes: direction (+Y up; three.js puts +X at the map's centre), linear colour,
// and the angular radii (degrees) of the full-strength core and of the soft edge.
const LIGHTS = [
  { dir: norm([0, 1, 0]), color: [1.3, 1.3, 1.35], core: 12, edge: 32 }, // overhead
  { dir: norm([-0.55, 0.5, 0.75]), color: [6.0, 5.4, 4.7], core: 10, edge: 24 }, // warm key, front-left
  { dir: norm([0.9, 0.25, 0.35]), color: [1.1, 1.25, 1.5], core: 12, edge: 30 }, // cool fill, right
  { dir: norm([0.1, 0.45, -1]), color: [2.2, 2.2, 2.3], core: 6, edge: 16 }, // rim, behind
];

function radiance(d) {
  const y = d[1];
  // Walls: neutral at the horizon, cooler and lighter up high, a warm dim floor below.
  let c =
    y >= 0 ? mix([0.36, 0.35, 0.34], [0.52, 0.55, 0.62], Math.pow(y, 0.7)) : mix([0.3, 0.27, 0.24], [0.12, 0.11, 0.1], Math.pow(-y, 0.6));
  for (const l of LIGHTS) {
    const cosCore = Math.cos((l.core * Math.PI) / 180);
    const cosEdge = Math.cos((l.edge * Math.PI) / 180);
    const f = smoothstep(cosEdge, cosCore, dot(d, l.dir));
    if (f > 0) c = c.map((v, k) => v + l.color[k] * f);
  }
  return c;
}

/** Radiance RGBE: a shared exponent byte for three mantissas. */
function rgbe([r, g, b]) {
  const m = Math.max(r, g, b);
  if (m < 1e-32) return [0, 0, 0, 0];
  const e = Math.floor(Math.log2(m)) + 1;
  const scale = 256 / 2 ** e;
  return [Math.floor(r * scale), Math.floor(g * scale), Math.floor(b * scale), e + 128];
}

/** Radiance's per-channel run-length code: runs as (128 + n, byte), literals as (n, bytes...). */
function rleChannel(bytes, into) {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    let run = 1;
    while (i + run < n && run < 127 && bytes[i + run] === bytes[i]) run++;
    if (run >= 3) {
      into.push(128 + run, bytes[i]);
      i += run;
      continue;
    }
    const start = i;
    while (i < n && i - start < 128) {
      if (i + 2 < n && bytes[i] === bytes[i + 1] && bytes[i] === bytes[i + 2]) break;
      i++;
    }
    into.push(i - start, ...bytes.slice(start, i));
  }
}

const body = [];
for (let j = 0; j < H; j++) {
  const lat = Math.PI / 2 - ((j + 0.5) / H) * Math.PI; // first scanline is the top
  const channels = [[], [], [], []];
  for (let i = 0; i < W; i++) {
    const lon = ((i + 0.5) / W) * 2 * Math.PI - Math.PI;
    const d = [Math.cos(lat) * Math.cos(lon), Math.sin(lat), Math.cos(lat) * Math.sin(lon)];
    rgbe(radiance(d)).forEach((v, k) => channels[k].push(v));
  }
  body.push(2, 2, W >> 8, W & 0xff);
  for (const ch of channels) rleChannel(ch, body);
}

const header = `#?RADIANCE\n# x3d studio viewer: procedural studio lighting (scripts/make-env-map.mjs)\nFORMAT=32-bit_rle_rgbe\n\n-Y ${H} +X ${W}\n`;
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, Buffer.concat([Buffer.from(header, "ascii"), Buffer.from(body)]));
console.log(`wrote ${path.relative(process.cwd(), out) || out} (${W}x${H})`);
