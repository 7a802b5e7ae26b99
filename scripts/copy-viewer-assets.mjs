// Copies the decoders the result viewer loads at run time into public/, so the viewer
// works offline and never fetches them from a CDN: three's Draco decoder (for
// Draco-compressed glTF) into public/draco/. Generated, not committed (.gitignore);
// run from the build. Meshopt needs no file: its decoder is bundled with the viewer.
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const COPIES = [
  {
    from: path.join(root, "node_modules/three/examples/jsm/libs/draco"),
    to: path.join(root, "public/draco"),
    files: ["draco_decoder.js", "draco_decoder.wasm", "draco_wasm_wrapper.js"],
  },
];

for (const { from, to, files } of COPIES) {
  mkdirSync(to, { recursive: true });
  for (const name of files) {
    const src = path.join(from, name);
    if (!existsSync(src)) throw new Error(`missing ${path.relative(root, src)}: is three installed?`);
    copyFileSync(src, path.join(to, name));
  }
  const kb = readdirSync(to).reduce((n, f) => n + statSync(path.join(to, f)).size, 0) / 1024;
  console.log(`copied ${files.length} files to ${path.relative(root, to)} (${Math.round(kb)} KB)`);
}
