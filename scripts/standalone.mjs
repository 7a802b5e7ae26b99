// The last step of `npm run build`: completes .next/standalone (next.config.js's `output:
// "standalone"`) into a folder that runs on its own with `node server.js`, as the container
// image does (Dockerfile). Next writes the server and the node_modules files its routes load;
// it leaves out the browser's files, and it cannot see what the server starts by path at run
// time. Those are added here, at the same paths from the folder as from the checkout: server.js
// makes its folder the working directory, which the process.cwd() paths resolve against
// (lib/engine/pool.ts, lib/display/run.ts, lib/db/pglite-remote.ts, lib/db/index.ts).
import fs from "node:fs";
import path from "node:path";
// The tracer Next traces the routes with (next is pinned): the same rules for the files added here.
import nft from "next/dist/compiled/@vercel/nft/index.js";
import { ROOT, WORKERS } from "./worker-bundle.mjs";

const STANDALONE = path.join(ROOT, ".next/standalone");

/**
 * What next build writes that the server needs. Anything else there is removed: Next's trace
 * takes a path joined onto DATA_DIR (default ./data) for one in the checkout and copies every
 * folder it could name, among them data/ itself (the database and generated secrets of a server run in the checkout),
 * app/, components/ and lib/tasks/ sources, none of which the server reads.
 */
const FROM_NEXT = new Set([".next", "node_modules", "package.json", "server.js"]);

/** Folders copied whole: the browser's files, which Next leaves out (a CDN may serve them). */
const FOLDERS = [".next/static", "public"];

/** `npm run backup` and `npm run restore` (docs/operations.md#backups), with their modules under scripts/backup/. */
const BACKUP_SCRIPTS = ["scripts/backup.mjs", "scripts/restore.mjs"];

/** The migrations, run at start (lib/db/index.ts): read as files, never imported. */
const MIGRATIONS = "lib/db/migrations";

/**
 * Scripts started by path, with every node_modules file they load (traced): the worker bundles
 * and PGlite's thread (lib/db/pglite-remote.ts: Turbopack now bundles it as a worker chunk of
 * its own, the copy keeps the path good if it stops; lib/db/pglite-init.ts's eval'd thread
 * loads the same package). The worker bundles come last: their copy there says the folder is
 * complete (scripts/build-state.mjs). The backup and restore scripts come too, so that an
 * operator of the image runs them inside it (`docker compose exec web node scripts/backup.mjs`,
 * docs/operations.md#backups) with the packages they load.
 */
const SCRIPTS = ["lib/db/pglite-host.mjs", ...BACKUP_SCRIPTS, ...WORKERS.map(([, bundle]) => bundle)];

/** Copies `relative` (a file or folder, from the root) to the same place in the folder. */
function copy(relative) {
  const from = path.join(ROOT, relative);
  if (!fs.existsSync(from)) throw new Error(`missing ${relative}: run the whole \`npm run build\``);
  fs.cpSync(from, path.join(STANDALONE, relative), { recursive: true, force: true, dereference: true });
}

if (!fs.existsSync(path.join(STANDALONE, "server.js")))
  throw new Error('no .next/standalone/server.js: next build did not write it (is `output: "standalone"` in next.config.js?)');

const removed = fs.readdirSync(STANDALONE).filter((name) => !FROM_NEXT.has(name));
for (const name of removed) fs.rmSync(path.join(STANDALONE, name), { recursive: true, force: true });
fs.rmSync(path.join(STANDALONE, ".next/static"), { recursive: true, force: true });

for (const folder of FOLDERS) copy(folder);
copy(MIGRATIONS);
const { fileList } = await nft.nodeFileTrace(
  SCRIPTS.map((script) => path.join(ROOT, script)),
  { base: ROOT, processCwd: ROOT },
);
const loaded = [...fileList].filter((file) => !SCRIPTS.includes(file));
for (const file of loaded) copy(file);
for (const script of SCRIPTS) copy(script);

console.log(
  `completed .next/standalone: removed ${removed.join(", ") || "nothing"}; added ${[...FOLDERS, MIGRATIONS, ...SCRIPTS].join(", ")} and the ${loaded.length} files they load`,
);
